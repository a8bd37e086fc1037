/**
 * Ingestion under hostile input and concurrent writers, on every test database: what the contract
 * accepts is stored exactly, what it rejects names a path, valid siblings are never lost, and
 * overlapping concurrent batches store every event once without an error escaping.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/core";
import { createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { loadRunEvents } from "@/lib/server/runs/run-events";
import { smallRun, startedEvent } from "@/lib/server/testing/events";
import { testDatabases } from "@/lib/server/testing/databases";
import { answerMismatches, expectedStored, mixedBatch } from "./fuzz-events";
import { ingestBatch } from "./ingest-batch";
import { DomainError } from "@/lib/server/errors";
import { errorResponse } from "@/lib/server/http/errors-to-response";

describe.each(testDatabases())("ingestion of hostile input and concurrent writers on $name", (kind) => {
  let db: Database;
  let projectId: string;
  let counter = 0;
  const nextRunId = (label: string) => `${label}-${kind.name}-${++counter}`;

  beforeAll(async () => {
    db = await kind.open();
    await createKey(db, "hostile");
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "hostile" } })).id;
  }, 60_000);
  afterAll(async () => db?.close());

  async function storedEvents(runId: string) {
    const run = await db.prisma.run.findUnique({ where: { projectId_runId: { projectId, runId } } });
    return run ? loadRunEvents(db, run) : [];
  }

  it("property: a batch mixing valid and unstorable events never throws, stores every valid one exactly as accepted, and names each rejection's path", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer().chain(() => {
          const runId = nextRunId("fuzz");
          return mixedBatch(runId, `${runId}/`).map((entries) => ({ runId, entries }));
        }),
        async ({ runId, entries }) => {
          const answer = await ingestBatch(
            db,
            projectId,
            entries.map((e) => e.raw),
          );
          expect(answerMismatches(entries, answer.results)).toEqual([]);
          const expected = expectedStored(entries);
          const stored = await storedEvents(runId);
          expect(stored).toHaveLength(expected.size);
          for (const event of stored) expect(canonicalJson(event)).toBe(expected.get(event.id));
          // sent again in another order, the valid ones are duplicates and nothing changes
          const again = await ingestBatch(
            db,
            projectId,
            [...entries].reverse().map((e) => e.raw),
          );
          expect(again.summary).toMatchObject({ created: 0, duplicate: expected.size });
        },
      ),
      { numRuns: kind.name === "pglite" ? 40 : 60, interruptAfterTimeLimit: 60_000 },
    );
  }, 120_000);

  it("stores events with years 0001–0099, leap seconds, offsets and the usual form at the right instants", async () => {
    const runId = nextRunId("time");
    const events = [
      { ...startedEvent(runId), ts: "0050-06-15T12:00:00Z" },
      { id: `${runId}-leap`, runId, type: "meter.requests", ts: "2016-12-31T23:59:60.5Z", turn: 0, body: { used: 1 } },
      { id: `${runId}-end`, runId, type: "run.ended", ts: "0099-12-31T23:59:59.999+00:00", body: { status: "completed" } },
      { id: `${runId}-offset`, runId, type: "meter.requests", ts: "2026-11-29T11:00:05.1239+01:00", turn: 0, body: { used: 2 } },
      { id: `${runId}-usual`, runId, type: "meter.requests", ts: "2026-11-29T10:00:05.120Z", turn: 0, body: { used: 3 } },
    ];
    const answer = await ingestBatch(db, projectId, events);
    expect(answer.summary).toEqual({ created: 5, duplicate: 0, error: 0 });
    const rows = await db.withSql((sql) =>
      sql.query<{ event_id: string; at: string }>(
        `SELECT event_id, to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS at FROM events WHERE event_id LIKE $1 ORDER BY event_id`,
        [`${runId}-%`],
      ),
    );
    // Whole milliseconds (the contract's instant), never the sent fraction rounded by PostgreSQL.
    expect(Object.fromEntries(rows.map((r) => [r.event_id, r.at]))).toEqual({
      [`${runId}-end`]: "0099-12-31T23:59:59.999000",
      [`${runId}-leap`]: "2016-12-31T23:59:59.999000",
      [`${runId}-offset`]: "2026-11-29T10:00:05.123000",
      [`${runId}-start`]: "0050-06-15T12:00:00.000000",
      [`${runId}-usual`]: "2026-11-29T10:00:05.120000",
    });
    const run = await db.withSql((sql) =>
      sql.query<{ started: string; ended: string }>(
        `SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS started, to_char(ended_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS ended FROM runs WHERE run_id = $1`,
        [runId],
      ),
    );
    expect(run).toEqual([{ started: "0050-06-15", ended: "0099-12-31" }]);
  });

  it("ignores unknown extra properties in what it stores, yet a re-send must be the same JSON value (contract §4)", async () => {
    const runId = nextRunId("extra");
    const event = {
      id: `${runId}-m`,
      runId,
      type: "meter.requests",
      ts: "2026-11-29T10:00:00Z",
      turn: 0,
      body: { used: 3, note: "x" },
      v2: { a: 1 },
    };
    expect((await ingestBatch(db, projectId, [event])).summary.created).toBe(1);
    const [stored] = await storedEvents(runId);
    expect(stored).toEqual({ id: event.id, runId, type: "meter.requests", ts: event.ts, turn: 0, body: { used: 3 } });
    // the same value with its keys in another order is a duplicate …
    const reordered = { v2: { a: 1 }, body: { note: "x", used: 3 }, turn: 0, ts: event.ts, type: event.type, runId, id: event.id };
    expect((await ingestBatch(db, projectId, [reordered])).results[0].status).toBe("duplicate");
    // … any other content, unknown properties included, is a conflict and the stored event stays
    const { v2: _v2, ...withoutExtra } = event;
    const again = await ingestBatch(db, projectId, [withoutExtra, { ...event, v2: "other" }, { ...withoutExtra, body: { used: 4 } }]);
    expect(again.results.map((r) => r.error?.message ?? r.status)).toEqual([
      expect.stringMatching(/conflict/),
      expect.stringMatching(/conflict/),
      expect.stringMatching(/conflict/),
    ]);
    expect(await storedEvents(runId)).toEqual([stored]);
  });

  it("has the one-run.started-per-run index the migration defines", async () => {
    const rows = await db.withSql((sql) =>
      sql.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'events_one_run_started_per_run'`),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].indexdef).toMatch(/UNIQUE INDEX .* \(project_id, run_pk\) WHERE \(type = 'run\.started'::text\)/);
  });

  it("10 concurrent writers of overlapping shuffled batches: no error escapes, every event stored once, run summaries exact", async () => {
    const runIds = [nextRunId("conc"), nextRunId("conc"), nextRunId("conc")];
    const all = runIds.flatMap((runId) => smallRun(runId, 15));
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const writers = Array.from({ length: 10 }, () => {
      const shuffled = [...all].sort(() => random() - 0.5);
      const batches: unknown[][] = [];
      for (let i = 0; i < shuffled.length; i += 40) batches.push(shuffled.slice(i, i + 40));
      return batches;
    });
    const answers = await Promise.all(
      writers.map(async (batches) => {
        const out = [];
        for (const batch of batches) out.push(await ingestBatch(db, projectId, batch));
        return out;
      }),
    );
    const created = answers.flat().reduce((n, a) => n + a.summary.created, 0);
    const errors = answers.flat().flatMap((a) => a.results.filter((r) => r.status === "error"));
    expect(errors).toEqual([]);
    expect(created).toBe(all.length);
    for (const runId of runIds) {
      const stored = await storedEvents(runId);
      expect(stored.map((e) => e.id).sort()).toEqual(
        all
          .filter((e) => e.runId === runId)
          .map((e) => String(e.id))
          .sort(),
      );
      const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
      expect(run).toMatchObject({ eventCount: stored.length, maxTurn: 14, status: "completed", agent: "etf-agent" });
    }
  }, 120_000);

  it.runIf(kind.name === "postgres")(
    "a transaction chosen as a deadlock victim is retried whole and the batch succeeds",
    async () => {
      const runId = nextRunId("victim");
      await ingestBatch(db, projectId, [startedEvent(runId)]);
      const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
      const meter = (id: string) => ({ id, runId, type: "meter.requests", ts: "2026-11-29T10:00:00Z", turn: 0, body: { used: 1 } });
      const { Client } = await import("pg");
      const other = new Client({ connectionString: db.label });
      await other.connect();
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (message: string) => void warnings.push(message);
      try {
        // Another writer holds event "…-x" and will want "…-a": the ingest takes "…-a" first, then
        // waits for "…-x" — a deadlock, which PostgreSQL breaks by aborting the ingest (it waited first).
        await other.query("BEGIN");
        await other.query("SET LOCAL deadlock_timeout = '20s'");
        const insert = `INSERT INTO events (project_id, run_pk, event_id, type, ts, at, turn, body, content_hash)
                      VALUES ($1, $2, $3, 'meter.requests', '2026-11-29T10:00:00Z', now(), 0, '{"used":2}', 'other')`;
        await other.query(insert, [projectId, run.id, `${runId}-x`]);
        const ingest = ingestBatch(db, projectId, [meter(`${runId}-x`), meter(`${runId}-a`)]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await other.query(insert, [projectId, run.id, `${runId}-a`]); // waits until the ingest is the victim
        await other.query("ROLLBACK");
        const answer = await ingest;
        expect(answer.summary).toEqual({ created: 2, duplicate: 0, error: 0 });
        expect(
          warnings.some((w) => /collided with a concurrent writer \(.*40P01.*\)/.test(w)),
          warnings.join("\n"),
        ).toBe(true);
      } finally {
        console.warn = warn;
        await other.end();
      }
      expect((await storedEvents(runId)).map((e) => e.id).sort()).toEqual([`${runId}-a`, `${runId}-start`, `${runId}-x`]);
    },
    60_000,
  );

  // On PGlite a transaction runs on microtasks alone, so a queued batch's timer cannot fire before
  // the one ahead of it is done: the queue timeout only matters (and is tested) on PostgreSQL.
  it.runIf(kind.name === "postgres")(
    "a batch that waits too long for its turn is answered 'unavailable' (503 with Retry-After), with nothing stored",
    async () => {
      const busyRun = nextRunId("busy");
      const waitingRun = nextRunId("waiting");
      const busy = ingestBatch(db, projectId, smallRun(busyRun, 150), { concurrency: 1 });
      const waiting = ingestBatch(db, projectId, smallRun(waitingRun, 2), { concurrency: 1, queueTimeoutMs: 1 }).catch((e) => e);
      const failure = await waiting;
      await busy;
      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({ kind: "unavailable", retryAfterSeconds: 2 });
      const response = errorResponse(failure);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("2");
      expect(await storedEvents(waitingRun)).toEqual([]);
      // and once the queue is free it goes through
      expect((await ingestBatch(db, projectId, smallRun(waitingRun, 2), { concurrency: 1 })).summary.created).toBe(8);
    },
    60_000,
  );

  it("two concurrent batches with different run.started events for one run: one is stored, the other is told which", async () => {
    for (let round = 0; round < 5; round++) {
      const runId = nextRunId("starts");
      const answers = await Promise.all(
        ["a", "b", "c"].map((who) => ingestBatch(db, projectId, [startedEvent(runId, `${runId}-start-${who}`)])),
      );
      const results = answers.map((a) => a.results[0]);
      const winners = results.filter((r) => r.status === "created");
      expect(winners).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== "created")) {
        expect(loser).toMatchObject({ status: "error", error: { path: "type" } });
        expect(loser.error!.message).toContain(`already started with event ${JSON.stringify(winners[0].id)}`);
      }
      expect((await storedEvents(runId)).filter((e) => e.type === "run.started")).toHaveLength(1);
    }
  });
});
