import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { findRun } from "@/lib/server/runs/find-run";
import { getRunDecisions } from "@/lib/server/runs/run-decisions";
import { testDatabases } from "@/lib/server/testing/databases";
import { startBackground, type Background } from "@/lib/server/background/background";
import { QUEUES } from "./queue";
import { taskThreads } from "@/lib/server/background/tasks";

/** Polls until `check` holds (a queue works on its own schedule), failing after `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(testDatabases())("background jobs on $name", (kind) => {
  let db: Database;
  let caller: Caller;
  const open: Background[] = [];
  const background = async (workers: number) => {
    const started = await startBackground(db, { workers, threads: taskThreads(0), retryDelay: 1 });
    open.push(started);
    return started;
  };
  const runEvents = (runId: string, turns: number, seed = 11) =>
    generateEtfRun({ runId, seed, turns, anomalies: true }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));

  beforeAll(async () => {
    db = await kind.open();
    caller = await authenticate(db, `Bearer ${(await createKey(db, "jobs")).secret}`);
  }, 60_000);
  afterAll(async () => {
    for (const b of open) await b.close().catch(() => {});
    await db?.close();
  });

  it("rebuilds a run after ingest in the background; until then reads say what is missing", async () => {
    const worker = await background(1);
    try {
      const events = runEvents("bg-live", 60);
      const half = events.length >> 1;
      await ingestBatch(db, caller.projectId, events.slice(0, half), {
        onStored: (runPks) => worker.queue.scheduleRebuilds(caller.projectId, runPks, 0),
      });
      const read = async () => getRunDecisions(db, await findRun(db, caller.projectId, "bg-live"));
      const first = await eventually(read, (r) => r.ok && r.staleEvents === 0);
      expect(first).toMatchObject({ ok: true, staleEvents: 0, pending: false });

      // More events, scheduled with a delay: the read serves the stored rebuild, marked stale.
      await ingestBatch(db, caller.projectId, events.slice(half), {
        onStored: (runPks) => worker.queue.scheduleRebuilds(caller.projectId, runPks, 1_500),
      });
      const stale = await read();
      expect(stale).toMatchObject({ ok: true, staleEvents: events.length - half, pending: false });
      expect(stale.ok && stale.json).toBe(first.ok && first.json);

      const current = await eventually(read, (r) => r.ok && r.staleEvents === 0);
      expect(current.ok && JSON.parse(current.json)).toEqual(rebuild(events.map((e) => ZEvent.parse(e))));
    } finally {
      await worker.close();
    }
  }, 60_000);

  it("keeps at most one waiting rebuild per run, however often it is scheduled", async () => {
    await ingestBatch(db, caller.projectId, runEvents("bg-once", 5));
    const run = await findRun(db, caller.projectId, "bg-once");
    const sender = await background(0);
    for (let i = 0; i < 5; i++) await sender.queue.scheduleRebuilds(caller.projectId, [run.id], 60_000);
    const rows = (await db.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state = 'created'`,
      [QUEUES.rebuild, run.id],
    )) as { rows: { n: number }[] };
    expect(rows.rows[0].n).toBe(1);
    await sender.close();
  }, 60_000);
});
