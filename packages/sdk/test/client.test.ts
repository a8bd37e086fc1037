import { afterEach, describe, expect, it, vi } from "vitest";
import { createCuescope, CuescopeError, newId, type CuescopeOptions } from "../src/index";

const POLICY = {
  requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] },
  review: { everyTurns: 10 },
};

/** A fake ingestion server: stores events by id, answers 207 like the real one; `script` answers first. */
function fakeServer(script: (Response | Error)[] = []) {
  const stored = new Map<string, unknown>();
  const requests: unknown[][] = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const batch = (JSON.parse(String(init!.body)) as { batch: { id: string }[] }).batch;
    requests.push(batch);
    const next = script.shift();
    if (next instanceof Error) throw next;
    if (next) return next;
    const results = batch.map((e) => {
      const duplicate = stored.has(e.id);
      stored.set(e.id, e);
      return { id: e.id, status: duplicate ? "duplicate" : "created" };
    });
    return Response.json({ results, summary: {} }, { status: 207 });
  });
  return { stored, requests, fetch: fetch as unknown as typeof globalThis.fetch };
}

function client(server: ReturnType<typeof fakeServer>, options: Partial<CuescopeOptions> = {}) {
  const errors: CuescopeError[] = [];
  const cs = createCuescope({
    url: "http://cuescope.test",
    apiKey: "cs_test",
    fetch: server.fetch,
    flushOnExit: false,
    sleep: async () => {},
    onError: (e) => errors.push(e),
    ...options,
  });
  return { cs, errors };
}

afterEach(() => vi.useRealTimers());

describe("@cuescope/sdk client", () => {
  it("batches by size", async () => {
    const server = fakeServer();
    const { cs } = client(server, { maxBatchEvents: 3, flushIntervalMs: 60_000 });
    const run = cs.startRun({ task: "t", policy: POLICY });
    run.meterRequests({ used: 1 }, { turn: 1 });
    run.requestFinal({ requiredBytes: 10 }, { turn: 1 });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    expect(server.requests[0]).toHaveLength(3);
    run.requestSubmitted({ outcome: "ok" }, { turn: 1 });
    await cs.shutdown();
    expect(server.stored.size).toBe(4);
    expect(cs.stats()).toMatchObject({ sent: 4, acknowledged: 4, duplicates: 0, buffered: 0 });
  });

  it("batches by time", async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    const { cs } = client(server, { flushIntervalMs: 1000 });
    const run = cs.startRun({ task: "t", policy: POLICY });
    run.meterTime({ elapsedMs: 5 }, { turn: 0 });
    await vi.advanceTimersByTimeAsync(999);
    expect(server.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toHaveLength(2);
    await cs.shutdown();
  });

  it("retries 503, 429 and network errors, then stores every event once", async () => {
    const server = fakeServer([
      new Response("busy", { status: 503 }),
      new Response("slow down", { status: 429, headers: { "retry-after": "1" } }),
      new TypeError("fetch failed"),
    ]);
    const delays: number[] = [];
    const { cs, errors } = client(server, { maxBatchEvents: 2, sleep: async (ms) => void delays.push(ms) });
    const run = cs.startRun({ task: "t", policy: POLICY });
    const ids = [run.runId];
    for (let turn = 1; turn <= 3; turn++) ids.push(run.meterRequests({ used: turn }, { turn }));
    ids.push(run.end({ status: "completed" }));
    await cs.flush();
    expect(errors).toEqual([]);
    expect(server.stored.size).toBe(5);
    expect(delays[1]).toBeGreaterThanOrEqual(1000); // Retry-After honoured
    expect(cs.stats()).toMatchObject({ sent: 5, acknowledged: 5, retries: 3, dropped: 0, rejected: 0, buffered: 0 });
    // the same ids were re-sent: the retried batch is identical to the first attempt
    expect(server.requests[0]).toEqual(server.requests[3]);
    await cs.shutdown();
  });

  it("counts duplicates answered for a re-sent batch", async () => {
    const server = fakeServer();
    const { cs } = client(server);
    const run = cs.startRun({ task: "t", policy: POLICY, runId: "dup-run" });
    const id = run.meterRequests({ used: 1 }, { turn: 1 });
    await cs.flush();
    run.meterRequests({ used: 1 }, { turn: 1, id, ts: (server.stored.get(id) as { ts: string }).ts });
    await cs.shutdown();
    expect(cs.stats()).toMatchObject({ acknowledged: 3, duplicates: 1 });
  });

  it("does not retry a 400 and reports it", async () => {
    const server = fakeServer([Response.json({ error: { code: "bad_request", message: "nope" } }, { status: 400 })]);
    const { cs, errors } = client(server);
    cs.startRun({ task: "t", policy: POLICY });
    await cs.shutdown();
    expect(server.requests).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: "rejected", status: 400 });
    expect(errors[0].message).toMatch(/nope/);
    expect(cs.stats()).toMatchObject({ rejected: 1, retries: 0 });
  });

  it("reports per-event errors of a 207 answer", async () => {
    const server = fakeServer([
      Response.json({ results: [{ id: "x", status: "error", error: { path: "body.task", message: "bad" } }] }, { status: 207 }),
    ]);
    const { cs, errors } = client(server);
    cs.startRun({ task: "t", policy: POLICY });
    await cs.shutdown();
    expect(errors.map((e) => e.kind)).toEqual(["rejected"]);
    expect(errors[0].message).toMatch(/body\.task: bad/);
  });

  it("drops the oldest events when the buffer is full, and reports it once", async () => {
    const script: Error[] = Array.from({ length: 4 }, () => new TypeError("down"));
    const server = fakeServer(script);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { cs, errors } = client(server, { maxBufferedEvents: 5, maxBatchEvents: 1, sleep: () => gate });
    const run = cs.startRun({ task: "t", policy: POLICY }); // in flight, waiting to retry
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    const ids = Array.from({ length: 8 }, (_, i) => run.meterRequests({ used: i }, { turn: i }));
    expect(cs.stats()).toMatchObject({ dropped: 3, buffered: 6 });
    expect(errors.map((e) => e.kind)).toEqual(["dropped"]);
    release();
    await cs.shutdown();
    expect([...server.stored.keys()].slice(1)).toEqual(ids.slice(3)); // run.started (in flight) kept, oldest 3 dropped
    expect(server.stored.size).toBe(6);
    expect(errors.map((e) => e.kind)).toEqual(["dropped"]);
  });

  it("throws on an invalid body in development", () => {
    const { cs } = client(fakeServer(), { mode: "development" });
    const run = cs.startRun({ task: "t", policy: POLICY });
    expect(() => run.meterRequests({ used: -1 }, { turn: 1 })).toThrow(/body\.used/);
    // @ts-expect-error: the body is typed from the contract
    expect(() => run.modelAction({ kind: "dance" }, { turn: 1 })).toThrow(CuescopeError);
    expect(() => run.record("meter.requests", { used: 1 })).toThrow(/turn/);
  });

  it("reports and drops an invalid event in production, and goes on", async () => {
    const server = fakeServer();
    const { cs, errors } = client(server, { mode: "production" });
    const run = cs.startRun({ task: "t", policy: POLICY });
    run.meterRequests({ used: -1 }, { turn: 1 });
    run.meterRequests({ used: 2 }, { turn: 1 });
    await cs.shutdown();
    expect(errors.map((e) => e.kind)).toEqual(["invalid"]);
    expect(server.stored.size).toBe(2);
    expect(cs.stats()).toMatchObject({ invalid: 1, acknowledged: 2 });
  });

  it("shutdown flushes and refuses new events", async () => {
    const server = fakeServer();
    const { cs, errors } = client(server, { mode: "production", flushIntervalMs: 60_000 });
    const run = cs.startRun({ task: "t", policy: POLICY });
    await cs.shutdown();
    expect(server.stored.size).toBe(1);
    run.meterRequests({ used: 1 }, { turn: 1 });
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/shut down/)]);
    const dev = client(fakeServer(), { mode: "development" }).cs;
    const devRun = dev.startRun({ task: "t", policy: POLICY });
    await dev.shutdown();
    expect(() => devRun.end({ status: "completed" })).toThrow(/shut down/);
  });

  it("makes unique, sortable ids", () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId(Date.now() + 1000) > ids[ids.length - 1]).toBe(true);
  });
});
