import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { healthPassed, waitForQuietLoop, watchHealth } from "./health-watch";

/** A stand-in server whose health answers report the given lags, one per answer (the last repeated). */
async function serveLags(lags: (number | undefined)[]): Promise<{ url: string; server: Server }> {
  let i = 0;
  const server = createServer((_req, res) => {
    const lag = lags[Math.min(i++, lags.length - 1)];
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        ok: true,
        service: "cuescope",
        database: "pglite",
        ...(lag === undefined ? {} : { eventLoop: { worstLagMs: lag, windowS: 60 } }),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the load test's health watch", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("keeps the worst lag the server reported during the load and fails it over 500 ms", async () => {
    const served = await serveLags([12, 640, 30]);
    server = served.server;
    const answers: [string, number][] = [];
    const watch = watchHealth(served.url, 10, (status, ms) => answers.push([status, ms]));
    await new Promise((resolve) => setTimeout(resolve, 60));
    const seen = await watch.stop();
    expect(seen.worstLagMs).toBe(640);
    // Every ask is heard, with its status and a latency no longer than the slowest the watch kept.
    expect(answers.length).toBe(seen.statuses["200"]);
    expect(answers.every(([status, ms]) => status === "200" && ms >= 0 && ms <= seen.maxLatencyMs)).toBe(true);
    expect(seen.statuses["200"]).toBeGreaterThanOrEqual(3);
    expect(healthPassed(seen)).toBe(false);
  });

  it("waits before the load until the stall of the server's start has left its lag window", async () => {
    const served = await serveLags([7_352, 7_352, 820, 41, 900]);
    server = served.server;
    expect(await waitForQuietLoop(served.url, 500, 5_000, 5)).toBe(41);
  });

  it("passes a server whose lag stayed at or under 500 ms, and fails one that does not report it", async () => {
    expect(healthPassed({ statuses: { 200: 3 }, worstLagMs: 500, maxLatencyMs: 4 })).toBe(true);
    const served = await serveLags([undefined]);
    server = served.server;
    const seen = await watchHealth(served.url, 1_000).stop();
    expect(seen.worstLagMs).toBeNull();
    expect(healthPassed(seen)).toBe(false);
  });
});
