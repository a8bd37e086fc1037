import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { testDatabases } from "@/lib/server/testing/databases";
import { createCuescope, newId, type CuescopeError, type CuescopeOptions } from "../src/index";
import { freePort, hostIngest, type IngestHost } from "./ingest-host";

// Issue 13's fault tests: the SDK against the app's real ingest route, served by a Node http
// server, while that server is down, slow, or the agent's process ends mid-batch. The bar: every
// event the SDK recorded is stored exactly once, and nothing is acknowledged that is not stored.

const POLICY = {
  requests: { limit: 400, deliveryReserve: 10, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
};
const CHILD = fileURLToPath(new URL("./fixtures/exit-child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Records a run of `turns` turns (4 events each, plus run.started and run.ended); returns every id. */
function recordRun(cs: ReturnType<typeof createCuescope>, turns: number): { runId: string; ids: string[] } {
  const run = cs.startRun({ task: "Compare ETF fees", agent: "etf-agent", policy: POLICY });
  const ids = [run.started!.id];
  for (let turn = 1; turn <= turns; turn++) {
    ids.push(run.meterRequests({ used: turn }, { turn }));
    ids.push(run.requestFinal({ requiredBytes: 1000 + turn }, { turn }));
    ids.push(run.modelAction({ kind: "tool_call" }, { turn }));
    ids.push(run.requestSubmitted({ outcome: "ok" }, { turn }));
  }
  ids.push(run.end({ status: "completed" }));
  return { runId: run.runId, ids };
}

describe.each(testDatabases())("SDK fault tests on $name", (kind) => {
  let db: Database;
  let key: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "sdk-faults")).secret;
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  async function storedIds(runId: string): Promise<string[]> {
    const rows = await db.prisma.event.findMany({ where: { run: { runId } }, select: { eventId: true } });
    return rows.map((r) => r.eventId);
  }

  /** Every recorded id stored, each once, nothing else. */
  async function expectStoredOnce(runId: string, ids: readonly string[]) {
    const stored = await storedIds(runId);
    expect(stored).toHaveLength(new Set(stored).size);
    expect([...stored].sort()).toEqual([...ids].sort());
  }

  function client(url: string, options: Partial<CuescopeOptions> = {}) {
    const errors: CuescopeError[] = [];
    const cs = createCuescope({ url, apiKey: key, flushOnExit: false, onError: (e) => errors.push(e), ...options });
    return { cs, errors };
  }

  it("server down, then up on the same port: every event stored once", async () => {
    const port = await freePort();
    const { cs, errors } = client(`http://127.0.0.1:${port}`, {
      maxBatchEvents: 7,
      flushIntervalMs: 10,
      retries: 30,
      retryDelayMs: 20,
      maxRetryDelayMs: 100,
    });
    const { runId, ids } = recordRun(cs, 10);
    // connection refused, retried, until the server is there
    await expect.poll(() => cs.stats().retries, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(cs.stats().acknowledged).toBe(0);
    const host = await hostIngest(port);
    try {
      await cs.shutdown();
    } finally {
      await host.close();
    }
    expect(errors).toEqual([]);
    await expectStoredOnce(runId, ids);
    expect(cs.stats()).toMatchObject({ sent: ids.length, acknowledged: ids.length, duplicates: 0, dropped: 0, rejected: 0, buffered: 0 });
  });

  it.each(["after", "before"] as const)(
    "a server that answers after the request timeout (stores %s the wait): retried with the same ids, every event stored once",
    async (slowMode) => {
      const host = await hostIngest(0, { slowFirst: 3, delayMs: 600, slowMode });
      try {
        const { cs, errors } = client(host.url, { maxBatchEvents: 9, flushIntervalMs: 10, requestTimeoutMs: 200, retryDelayMs: 10 });
        const { runId, ids } = recordRun(cs, 8);
        await cs.shutdown();
        expect(errors).toEqual([]);
        expect(host.faults.slowFirst).toBe(0);
        // the late requests still land: wait for them before counting
        await new Promise((resolve) => setTimeout(resolve, 800));
        await expectStoredOnce(runId, ids);
        const stats = cs.stats();
        expect(stats).toMatchObject({ acknowledged: ids.length, dropped: 0, rejected: 0, buffered: 0 });
        expect(stats.retries).toBeGreaterThanOrEqual(3);
        // stored while the client waited: the re-send is answered duplicate, never stored twice
        if (slowMode === "after") expect(stats.duplicates).toBeGreaterThan(0);
      } finally {
        await host.close();
      }
    },
  );

  it("without a time limit a slow answer is waited for (requestTimeoutMs: 0)", async () => {
    const host = await hostIngest(0, { latencyMs: 300 });
    try {
      const { cs, errors } = client(host.url, { flushIntervalMs: 10, requestTimeoutMs: 0 });
      const { runId, ids } = recordRun(cs, 2);
      await cs.shutdown();
      expect(errors).toEqual([]);
      expect(cs.stats()).toMatchObject({ retries: 0, acknowledged: ids.length });
      await expectStoredOnce(runId, ids);
    } finally {
      await host.close();
    }
  });

  describe("the agent's process ends mid-batch", () => {
    let host: IngestHost;
    beforeAll(async () => {
      host = await hostIngest(0, { latencyMs: 150 }); // a batch is in flight when main returns
    });
    afterAll(() => host?.close());

    function child(how: string, runId: string, events: number) {
      const proc = spawn(process.execPath, ["--import", "tsx", CHILD, host.url, key, runId, String(events), how], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NODE_ENV: "development" },
      });
      let stdout = "";
      let stderr = "";
      proc.stdout.on("data", (chunk) => (stdout += chunk));
      proc.stderr.on("data", (chunk) => (stderr += chunk));
      const done = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        proc.on("close", (code, signal) => resolve({ code, signal })),
      );
      return { proc, done, output: () => ({ stdout, stderr }) };
    }

    const statsOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, number>;

    // 23 events: a batch of 5 is in flight (its first attempt answered 503 and retried) and 18 wait
    // behind it when main returns; 4 events: fewer than a batch, so no send has started and only the
    // (unref'd) interval timer is pending — the beforeExit flush alone sends them.
    it.each([23, 4])(
      "main returns with %i events recorded and not yet sent: every one is delivered",
      async (events) => {
        host.faults.failFirst = 1;
        const runId = `exit-return-${newId()}`;
        const c = child("return", runId, events);
        const { code } = await c.done;
        expect(c.output().stderr).toBe("");
        expect(code).toBe(0);
        expect(statsOf(c.output().stdout)).toMatchObject({ acknowledged: events, buffered: 0, dropped: 0, retries: 1 });
        const stored = await storedIds(runId);
        expect(stored).toHaveLength(events);
        expect(new Set(stored).size).toBe(events);
      },
      60_000,
    );

    it("await shutdown() before process.exit(): every event delivered", async () => {
      const runId = `exit-shutdown-${newId()}`;
      const c = child("shutdown", runId, 17);
      expect((await c.done).code).toBe(0);
      expect(statsOf(c.output().stdout)).toMatchObject({ acknowledged: 17, buffered: 0 });
      expect(new Set(await storedIds(runId)).size).toBe(17);
    }, 60_000);

    it("process.exit() without shutdown: nothing is flushed and nothing is claimed (the documented limit)", async () => {
      const runId = `exit-now-${newId()}`;
      const c = child("exit", runId, 17);
      expect((await c.done).code).toBe(0);
      expect(statsOf(c.output().stdout)).toMatchObject({ acknowledged: 0, buffered: 17 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await storedIds(runId)).length).toBeLessThan(17);
    }, 60_000);

    it("SIGTERM with flushOnSignals: flushed, then the process ends by the signal", async () => {
      const runId = `exit-signal-${newId()}`;
      const c = child("signal", runId, 17);
      await expect.poll(() => c.output().stdout, { timeout: 30_000 }).toContain("recorded");
      c.proc.kill("SIGTERM");
      const { code, signal } = await c.done;
      expect(c.output().stderr).toBe("");
      expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" }); // ended by the signal: no "exit" event, no stats line
      expect(new Set(await storedIds(runId)).size).toBe(17);
    }, 60_000);
  });
});
