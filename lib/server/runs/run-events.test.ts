import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent } from "@/lib/contracts";
import { createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { StoredDataError } from "@/lib/server/db/json-columns";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { smallRun } from "@/lib/server/testing/events";
import {
  eventRowsOfCopyPages,
  loadRunEvents,
  loadRunEventsOfTypes,
  queryEventRows,
  readEventCopyPages,
  readEventRowsInPages,
} from "./run-events";
import { listRunEvents } from "./run-reads";

describe.each(testDatabases())("stored events read back through the event contract on $name", (kind) => {
  let db: Database;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    await createKey(db, "stored events");
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "stored events" } })).id;
  }, 60_000);
  afterAll(async () => db?.close());

  async function ingestRun(runId: string) {
    const sent = smallRun(runId, 3);
    expect((await ingestBatch(db, projectId, sent)).summary.error).toBe(0);
    return { sent, run: await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } }) };
  }

  it("reads every event back as it was accepted, whichever query reads it", async () => {
    const { sent, run } = await ingestRun("intact");
    const accepted = sent.map((e) => ZEvent.parse(e));
    // Arrival order is the store's (ingest inserts a batch in its own order): compare sorted by id.
    const byId = (events: readonly { id: string }[]) => [...events].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(await loadRunEvents(db, run))).toEqual(byId(accepted));
    expect(byId(await loadRunEventsOfTypes(db, run, ["run.started", "request.final"]))).toEqual(
      byId(accepted.filter((e) => e.type === "run.started" || e.type === "request.final")),
    );
    const page = await listRunEvents(db, projectId, "intact", { turn: 1, limit: 10 });
    expect(byId(page.events.map((e) => e.event as { id: string }))).toEqual(
      byId(accepted.filter((e) => e.type !== "run.started" && e.type !== "run.ended" && e.turn === 1)),
    );
  });

  it("reads a run's rows a page at a time: the whole read's rows, in seq order, none lost or repeated at a page's edge", async () => {
    // Two runs sent turn by turn in turns, so the run's seqs have gaps (the other run's rows).
    const [a, b] = [smallRun("paged-a", 4), smallRun("paged-b", 4)];
    for (let i = 0; i < Math.max(a.length, b.length); i += 3) {
      for (const batch of [a.slice(i, i + 3), b.slice(i, i + 3)])
        if (batch.length) expect((await ingestBatch(db, projectId, batch)).summary.error).toBe(0);
    }
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: "paged-a" } } });
    const whole = await queryEventRows(db, run);
    expect(whole).toHaveLength(a.length);
    const seqs = whole.map((row) => BigInt(row.seq));
    expect(seqs.slice(1).every((seq, i) => seq > seqs[i])).toBe(true);
    expect(seqs.at(-1)! - seqs[0]).toBeGreaterThan(a.length); // gaps: the other run's rows in between
    // Pages of sizes that do and do not divide the count, of exactly the count, of more, of 1.
    for (const pageRows of [2, 3, a.length - 1, a.length, a.length + 5, 1])
      expect(await readEventRowsInPages(db, run, pageRows), `pages of ${pageRows}`).toEqual(whole);
    // The same pages read as binary COPY bytes (the replay's read), read into rows elsewhere.
    for (const pageRows of [2, 3, a.length - 1, a.length, a.length + 5, 1]) {
      const pages = await readEventCopyPages(db, run, pageRows);
      expect(pages, `copy pages of ${pageRows}`).toHaveLength(Math.ceil(a.length / pageRows));
      expect(eventRowsOfCopyPages(pages), `copy pages of ${pageRows}`).toEqual(whole);
    }
  });

  it("gives the event loop a turn between pages (an embedded query never does), so other work is not held for the whole read", async () => {
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: "paged-a" } } });
    let turns = 0;
    let reading = true;
    const count = () => {
      if (!reading) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const rows = await readEventRowsInPages(db, run, 2);
    reading = false;
    const pages = Math.ceil((rows.length + 1) / 2); // the last page is the first one shorter than 2
    expect(turns).toBeGreaterThanOrEqual(pages - 1);
  });

  it("a stored body that no longer parses is a StoredDataError naming the row, the column and the path, never a cast", async () => {
    const { run } = await ingestRun("hand-edited");
    const [row] = await db.withSql((sql) =>
      sql.query<{ seq: string }>(
        `UPDATE events SET body = '{"used": "many"}'::jsonb WHERE run_pk = $1 AND type = 'meter.requests' AND turn = 2 RETURNING seq::text AS seq`,
        [run.id],
      ),
    );
    const message = new RegExp(`^stored events\\.body of row "${row.seq}" does not match its schema: body\\.used: expected integer >= 0`);
    await expect(loadRunEvents(db, run)).rejects.toThrow(StoredDataError);
    await expect(loadRunEvents(db, run)).rejects.toThrow(message);
    await expect(listRunEvents(db, projectId, "hand-edited", { turn: 2, limit: 10 })).rejects.toThrow(message);
    // Reads that do not reach the broken row are unaffected.
    expect(await loadRunEventsOfTypes(db, run, ["request.final"])).toHaveLength(3);
  });
});
