import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpSink, IngestRequestError, parseRetryAfterMs, retryDelayMs } from "./ingest-sink";

const ok207 = (n: number) =>
  JSON.stringify({
    results: Array.from({ length: n }, (_, i) => ({ id: `e${i}`, status: "created" })),
    summary: { created: n, duplicate: 0, error: 0 },
  });

/** A local server answering the scripted statuses in turn (then 207), recording what it got. */
async function scripted(answers: { status: number; headers?: Record<string, string>; body?: string }[]) {
  const seen: { auth?: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ auth: req.headers.authorization, body });
      const next = answers.shift();
      if (next?.status === 0) return req.socket.destroy(); // a network fault
      const status = next?.status ?? 207;
      res.writeHead(status, { "content-type": "application/json", ...(next?.headers ?? {}) });
      res.end(
        next?.body ??
          (status === 207
            ? ok207((JSON.parse(body).batch as unknown[]).length)
            : JSON.stringify({ error: { code: "x", message: `status ${status}` } })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("httpSink retries", () => {
  it("retries 500, 503, 429 and a dropped connection, honouring Retry-After, then returns the 207", async () => {
    const { url, seen } = await scripted([
      { status: 500 },
      { status: 503, headers: { "retry-after": "2" } },
      { status: 0 },
      { status: 429, headers: { "retry-after": "1" } },
      { status: 502 },
    ]);
    const waits: number[] = [];
    const sink = httpSink(url, "k-1", { random: () => 0.5, sleep: async (ms) => void waits.push(ms), retryDelayMs: 100 });
    const answer = await sink([{ id: "a" }, { id: "b" }]);
    expect(answer.summary.created).toBe(2);
    expect(seen).toHaveLength(6);
    expect(seen.every((s) => s.auth === "Bearer k-1" && s.body === seen[0].body)).toBe(true);
    // full jitter below 100·2^(n−1); Retry-After is a floor
    expect(waits).toEqual([50, 2000, 200, 1000, 800]);
  });

  it("does not retry other 4xx answers", async () => {
    const { url, seen } = await scripted([{ status: 401 }]);
    const failure = await httpSink(url, "bad", { sleep: async () => {} })([{ id: "a" }]).catch((e) => e);
    expect(failure).toBeInstanceOf(IngestRequestError);
    expect(failure.status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it("gives up after its retries with the last status", async () => {
    const { url, seen } = await scripted(Array.from({ length: 10 }, () => ({ status: 503 })));
    const failure = await httpSink(url, "k", { retries: 3, sleep: async () => {} })([{ id: "a" }]).catch((e) => e);
    expect(failure).toBeInstanceOf(IngestRequestError);
    expect(failure.message).toMatch(/answered 503: status 503 \(after 4 attempts\)/);
    expect(seen).toHaveLength(4);
  });

  it("spreads waits with full jitter under a growing cap, and reads Retry-After as seconds or a date", () => {
    const waits = Array.from({ length: 200 }, () => retryDelayMs(4, null, { retryDelayMs: 100 }));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(800);
    expect(new Set(waits).size).toBeGreaterThan(50);
    expect(retryDelayMs(30, null, { random: () => 0.999999, maxDelayMs: 5000 })).toBe(4999);
    expect(parseRetryAfterMs("7")).toBe(7000);
    expect(parseRetryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30_000);
    expect(parseRetryAfterMs("soon")).toBeNull();
    expect(retryDelayMs(1, "3600", { random: () => 0, maxRetryAfterMs: 60_000 })).toBe(60_000);
  });
});
