import { describe, expect, it } from "vitest";
import { ZHealth } from "@/lib/contracts";
import { useDatabase, type Database } from "@/lib/server/db";
import { askHealth } from "@/lib/server/testing/health";
import { LagMonitor } from "./event-loop-lag";

/** Blocks the event loop for `ms` by spinning, as a request doing synchronous work would. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the event-loop lag monitor", () => {
  it("shows a 300 ms synchronous block as a lag of at least 300 ms less one sampling interval", async () => {
    const monitor = new LagMonitor({ sampleMs: 20, windowS: 60 }).start();
    try {
      await tick(50);
      block(300);
      // Read straight after the block, before the timer could fire: the late tick counts already.
      expect(monitor.read().worstLagMs).toBeGreaterThanOrEqual(300 - 20);
      await tick(30); // the timer fires, late
      expect(monitor.read().worstLagMs).toBeGreaterThanOrEqual(300 - 20);
      expect(monitor.read().windowS).toBe(60);
    } finally {
      monitor.stop();
    }
  });

  it("keeps the worst lag of its window and forgets it once the window has passed", () => {
    const monitor = new LagMonitor({ sampleMs: 50, windowS: 60, slices: 12 }); // slices of 5 s
    monitor.record(40, 1_000);
    monitor.record(700, 12_000);
    monitor.record(90, 30_000);
    expect(monitor.read(30_000).worstLagMs).toBe(700);
    // 12 s lies in the slice [10 s, 15 s): kept until the window no longer reaches it.
    expect(monitor.read(69_999).worstLagMs).toBe(700);
    expect(monitor.read(75_000).worstLagMs).toBe(90);
    expect(monitor.read(95_000).worstLagMs).toBe(0);
  });
});

describe("GET /api/v1/health reports the event loop", () => {
  it("answers the recent worst lag (also when the database is down), which a 300 ms block raises to at least 300 ms less one sampling interval", async () => {
    // A database that is down (only the health check's view of it): the 503 reports the event loop too,
    // and no background work is started on the stand-in.
    useDatabase({ kind: "pglite", prisma: { $queryRaw: () => Promise.reject(new Error("down")) } } as unknown as Database);
    const first = await askHealth();
    expect(first.status).toBe(503);
    const parsed = ZHealth.parse(first.body);
    expect(parsed.eventLoop.windowS).toBe(60);
    await tick(100); // the monitor, started by the first call, ticks
    block(300);
    const after = ZHealth.parse((await askHealth()).body);
    expect(after.eventLoop.worstLagMs).toBeGreaterThanOrEqual(300 - 50);
  });
});
