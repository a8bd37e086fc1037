import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { testDatabases } from "@/lib/server/testing/databases";
import { createCuescope, type CuescopeError } from "../src/index";
import { closeHostedIngest, openHostedIngest, type IngestHost } from "./ingest-host";

const POLICY = {
  requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
  review: { everyTurns: 10 },
};

describe.each(testDatabases())("SDK against the real ingestion on $name", (kind) => {
  let db: Database;
  let key: string;
  let host: IngestHost;

  beforeAll(async () => void ({ db, key, host } = await openHostedIngest(kind, "sdk")), 60_000);
  afterAll(() => closeHostedIngest({ db, host }));

  it("stores exactly the events of a scripted run, across a server answering 503 first", async () => {
    host.faults.failFirst = 3;
    const errors: CuescopeError[] = [];
    const cs = createCuescope({
      url: host.url,
      apiKey: key,
      maxBatchEvents: 7,
      flushIntervalMs: 20,
      retryDelayMs: 5,
      flushOnExit: false,
      onError: (e) => errors.push(e),
    });
    const run = cs.startRun({ task: "Compare ETF fees", agent: "etf-agent", model: "m-large", policy: POLICY });
    const ids: string[] = [];
    for (let turn = 1; turn <= 10; turn++) {
      ids.push(run.meterRequests({ used: turn * 2 }, { turn }));
      ids.push(run.requestFinal({ requiredBytes: turn * 500 }, { turn }));
      ids.push(run.modelAction({ kind: "tool_call" }, { turn }));
      ids.push(run.requestSubmitted({ outcome: "ok" }, { turn }));
    }
    ids.push(run.end({ status: "completed" }));
    await cs.shutdown();

    expect(errors).toEqual([]);
    expect(host.faults.failFirst).toBe(0);
    const stored = await db.prisma.event.findMany({ where: { run: { runId: run.runId } }, select: { eventId: true, type: true } });
    const storedIds = stored.map((e) => e.eventId);
    expect(new Set(storedIds).size).toBe(storedIds.length);
    expect(storedIds.length).toBe(ids.length + 1); // + run.started
    expect(storedIds).toEqual(expect.arrayContaining(ids));
    expect(stored.filter((e) => e.type === "run.started")).toHaveLength(1);
    expect(cs.stats()).toMatchObject({ sent: 42, acknowledged: 42, rejected: 0, dropped: 0, buffered: 0 });
    expect(cs.stats().retries).toBeGreaterThanOrEqual(3);
  });
});
