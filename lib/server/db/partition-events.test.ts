import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisionsJson, getTurnDetail, listRunEvents } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import { smallRun, startedEvent } from "@/lib/server/testing/events";
import { keysWithoutProject } from "@/lib/server/testing/key-audit";
import type { Database } from ".";
import { eventPartitions, eventsArePartitioned, partitionEventsByTime } from "./partition-events";

const postgres = testDatabases().find((kind) => kind.name === "postgres");

/** The month partition's name for an instant, as events_create_partitions names it (UTC). */
const partitionOf = (at: Date) => `events_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, "0")}`;

// The opt-in migration is for PostgreSQL servers only: scripts/partition-events.ts refuses the
// embedded PGlite database (one process's small database keeps the committed layout), so on PGlite
// there is nothing to test. Set DATABASE_URL to run this suite.
describe.skipIf(!postgres)("events partitioned by time (prisma/optional/partition-events-by-time; PostgreSQL only)", () => {
  let db: Database;
  let projectId: string;
  const sql = <T = Record<string, unknown>>(text: string, params?: unknown[]) => db.withSql((s) => s.query<T>(text, params));
  const allRows = () =>
    sql(
      `SELECT seq::text, project_id, run_pk, event_id, type, ts, at, turn, body::text, content_hash, received_at FROM events ORDER BY seq`,
    );
  const resend = (events: Record<string, unknown>[]) => ingestBatch(db, projectId, events);
  const old = smallRun("old", 4);
  const spanning = smallRun("spanning", 4);
  const recent = smallRun("recent", 4);
  const decisionsBefore = new Map<string, string>();
  let rowsBefore: unknown[];

  beforeAll(async () => {
    db = await postgres!.open();
    projectId = (await db.prisma.project.create({ data: { name: "partitions" } })).id;
    for (const run of [old, spanning, recent]) expect((await resend(run)).summary.created).toBe(run.length);
    // Arrivals spread over the months: "old" came in January 2026, "spanning" started then and went on now.
    await sql(`UPDATE events SET received_at = '2026-01-15T12:00:00Z' FROM runs r WHERE r.id = run_pk AND r.run_id = 'old'`);
    await sql(`UPDATE runs SET first_seen_at = '2026-01-15T12:00:00Z', last_event_at = '2026-01-15T12:00:00Z' WHERE run_id = 'old'`);
    await sql(
      `UPDATE events SET received_at = '2026-01-20T08:00:00Z' WHERE event_id = 'spanning-start' OR event_id LIKE 'spanning-0000-%'`,
    );
    await sql(`UPDATE runs SET first_seen_at = '2026-01-20T08:00:00Z' WHERE run_id = 'spanning'`);
    await settleRebuilds(db);
    for (const runId of ["old", "spanning", "recent"]) decisionsBefore.set(runId, (await getDecisionsJson(db, projectId, runId)).json);
    rowsBefore = await allRows();

    expect(await partitionEventsByTime(db)).toBe(true);
  }, 120_000);
  afterAll(async () => db?.close());

  it("moves every row into monthly partitions, keeps them all, and is applied once", async () => {
    expect(await db.withSql(eventsArePartitioned)).toBe(true);
    const now = new Date();
    const ahead = (months: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
    const partitions = await db.withSql(eventPartitions);
    for (const name of ["events_2026_01", "events_default", partitionOf(now), partitionOf(ahead(3))]) expect(partitions).toContain(name);
    expect(await allRows()).toEqual(rowsBefore);
    expect(await sql(`SELECT count(*)::int AS n FROM events_2026_01`)).toEqual([{ n: old.length + 4 }]);
    expect(await sql(`SELECT count(*)::int AS n FROM event_ids`)).toEqual([{ n: rowsBefore.length }]);
    expect(await partitionEventsByTime(db)).toBe(false);
    // Still the project in every key, event_ids included.
    expect(await db.withSql(keysWithoutProject)).toEqual([]);
  });

  it("reads a run as before: its events, a turn, and decisions rebuilt from the partitions", async () => {
    await sql(`DELETE FROM run_decisions`);
    await settleRebuilds(db); // what the background queue does: rebuilt from the partitions
    for (const [runId, json] of decisionsBefore) expect((await getDecisionsJson(db, projectId, runId)).json).toBe(json);
    const page = await listRunEvents(db, projectId, "spanning", { limit: 200 });
    expect(page.events.map((e) => e.event.id).sort()).toEqual(spanning.map((e) => e.id as string).sort());
    expect((await getTurnDetail(db, projectId, "old", 2)).events).toHaveLength(3);
  });

  it("ingest still recognises a known id: same content duplicate, other content conflict, a second run.started refused", async () => {
    const again = await resend([...old, ...recent]);
    expect(again.summary).toEqual({ created: 0, duplicate: old.length + recent.length, error: 0 });
    const changed = await resend([{ ...old[1], body: { used: 999 } }]);
    expect(changed.results[0].error?.message).toMatch(/conflict/);
    const secondStart = await resend([startedEvent("recent", "recent-start-again")]);
    expect(secondStart.results[0].error?.message).toMatch(/already started with event "recent-start"/);
    expect(await allRows()).toEqual(rowsBefore);
  });

  it("stores a new run's events once under two concurrent identical batches", async () => {
    const fresh = smallRun("fresh", 6);
    const [a, b] = await Promise.all([resend(fresh), resend(fresh)]);
    expect(a.summary.created + b.summary.created).toBe(fresh.length);
    expect(a.summary.duplicate + b.summary.duplicate).toBe(fresh.length);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: "fresh" } } });
    expect(run.eventCount).toBe(fresh.length);
    expect(
      await sql(`SELECT tableoid::regclass::text AS p, count(*)::int AS n FROM events WHERE run_pk = $1 GROUP BY 1`, [run.id]),
    ).toEqual([{ p: partitionOf(new Date()), n: fresh.length }]);
  });

  it("prunes partitions for a time-bounded query", async () => {
    const plan = (
      await sql<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT count(*) FROM events WHERE project_id = $1 AND received_at >= '2026-01-01T00:00:00Z' AND received_at < '2026-02-01T00:00:00Z'`,
        [projectId],
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(plan).toContain("events_2026_01");
    expect(plan).not.toContain("events_default");
    expect(plan).not.toContain(partitionOf(new Date()));
  });

  it("moves rows out of the default partition when their month's partition is made, and refuses to move an event", async () => {
    const [run] = await sql<{ id: string }>(`SELECT id FROM runs WHERE run_id = 'fresh'`);
    await sql(
      `INSERT INTO events (project_id, run_pk, event_id, type, ts, at, body, content_hash, received_at)
       VALUES ($1, $2, 'far-future', 'meter.requests', '2031-05-10T00:00:00Z', '2031-05-10T00:00:00Z', '{}', 'h', '2031-05-10T00:00:00Z')`,
      [projectId, run.id],
    );
    const where = () => sql<{ p: string }>(`SELECT tableoid::regclass::text AS p FROM events WHERE event_id = 'far-future'`);
    expect(await where()).toEqual([{ p: "events_default" }]);
    expect(await sql(`SELECT events_create_partitions('2031-05-01T00:00:00Z', '2031-05-01T00:00:00Z') AS name`)).toEqual([
      { name: "events_2031_05" },
    ]);
    expect(await where()).toEqual([{ p: "events_2031_05" }]);
    expect(await sql(`SELECT count(*)::int AS n FROM events_default`)).toEqual([{ n: 0 }]);
    await expect(sql(`UPDATE events SET received_at = now() WHERE event_id = 'far-future'`)).rejects.toThrow(/append-only/);
  });

  it("drops old months whole: runs with nothing left go, a run with events on both sides keeps the rest and frees the dropped ids", async () => {
    expect(await sql(`SELECT events_drop_partitions_before('2026-02-01T00:00:00Z') AS name`)).toEqual([{ name: "events_2026_01" }]);
    expect(await db.prisma.run.findMany({ where: { projectId, runId: { in: ["old", "spanning"] } }, select: { runId: true } })).toEqual([
      { runId: "spanning" },
    ]);
    const kept = await db.prisma.run.findUniqueOrThrow({
      where: { projectId_runId: { projectId, runId: "spanning" } },
      include: { decisions: true },
    });
    expect(kept.eventCount).toBe(spanning.length - 4);
    expect(kept.decisions).toBeNull();
    // The dropped ids are free again: re-sending stores them anew; what was kept is a duplicate.
    expect((await resend(old)).summary.created).toBe(old.length);
    expect((await resend(spanning)).summary).toEqual({ created: 4, duplicate: spanning.length - 4, error: 0 });
  });
});
