import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/server/auth/keys";
import { openDatabase, useDatabase, type Database } from "@/lib/server/db";
import { isTransientDatabaseError } from "@/lib/server/db/errors";
import { createScratchPostgres, type ScratchPostgres } from "@/lib/server/testing/databases";
import { FaultProxy } from "@/lib/server/testing/fault-proxy";
import { askHealth } from "@/lib/server/testing/health";
import { smallRun, type Raw } from "@/lib/server/testing/events";
import { createCommentRoute } from "./comment-routes";
import { otlpTracesRoute } from "./otlp-routes";
import { reviewerExportRoute } from "./reviewer-routes";
import { ingestRoute } from "./routes";
import { routeOf } from "@/lib/server/http/api";
import { commentsApi, runsApi } from "@/lib/endpoints";

const listCommentsRoute = routeOf(commentsApi.list);
const listRunsRoute = routeOf(runsApi.list);

/**
 * The database made unreachable and hung mid-ingest, through a TCP proxy between the app and
 * PostgreSQL: every request answers 503 within its time limits (never 500, never hangs), the server
 * recovers by itself once the database is back, and nothing acknowledged is lost.
 * PostgreSQL only (PGlite runs in-process: no network to break); skipped without DATABASE_URL.
 */
const adminUrl = process.env.DATABASE_URL;
const PROXY_PORT = Number(process.env.CUESCOPE_FAULT_PROXY_PORT ?? 3402);
/** Short limits so the test is quick; the defaults are seconds longer. */
const TIMEOUTS = { connectMs: 1_000, statementMs: 2_000, queryMs: 2_500, lockMs: 1_000, idleInTransactionMs: 5_000, openMs: 3_000 };
/** Loose: far above the limits, far below "hangs" (the bug was > 100 s). */
const PROMPT_MS = 15_000;
const INSERT_EVENTS = /INSERT INTO "events"/;

interface Answer {
  status: number;
  ms: number;
  body: { results?: { id: string; status: string }[]; error?: { code: string } };
  retryAfter: string | null;
}

describe.skipIf(!adminUrl)("database faults (PostgreSQL through a fault proxy)", () => {
  let scratch: ScratchPostgres;
  let direct: Database;
  let app: Database;
  let proxy: FaultProxy;
  let key: string;
  const answers: Answer[] = [];
  /** Event ids answered created/duplicate in a 207: these must be stored. */
  const acknowledged = new Set<string>();
  /** Every event id ever sent, each batch eventually re-sent until it got a 207. */
  const sent = new Set<string>();

  beforeAll(async () => {
    scratch = await createScratchPostgres(adminUrl!, "cuescope_faults");
    const target = new URL(scratch.url);
    direct = await openDatabase({ url: scratch.url });
    key = (await createKey(direct, "faults")).secret;
    proxy = await FaultProxy.start(PROXY_PORT, { host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(target);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    app = await openDatabase({ url: viaProxy.toString(), migrate: false, timeouts: TIMEOUTS });
    useDatabase(app);
    process.env.CUESCOPE_HEALTH_TIMEOUT_MS = "1000";
  }, 60_000);

  afterAll(async () => {
    delete process.env.CUESCOPE_HEALTH_TIMEOUT_MS;
    proxy?.heal();
    await Promise.race([app?.close(), new Promise((done) => setTimeout(done, 3_000))]).catch(() => {});
    await proxy?.close();
    await direct?.close();
    await scratch?.drop();
  }, 60_000);

  async function ingest(batch: Raw[]): Promise<Answer> {
    for (const event of batch) sent.add(String(event.id));
    const started = Date.now();
    const response = await ingestRoute(
      new Request("http://cuescope.test/api/v1/ingest", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ batch }),
      }),
    );
    const answer: Answer = {
      status: response.status,
      ms: Date.now() - started,
      body: await response.json(),
      retryAfter: response.headers.get("retry-after"),
    };
    answers.push(answer);
    if (answer.status === 207) {
      for (const result of answer.body.results!)
        if (result.status === "created" || result.status === "duplicate") acknowledged.add(result.id);
    }
    return answer;
  }

  function expectUnavailable(answer: { status: number; ms: number; retryAfter: string | null }) {
    expect(answer.status).toBe(503);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.ms).toBeLessThan(PROMPT_MS);
  }

  it("stores a batch while the database is healthy", async () => {
    expect((await askHealth()).status).toBe(200);
    const answer = await ingest(smallRun("before", 3));
    expect(answer.status).toBe(207);
    expect(answer.body.results!.every((r) => r.status === "created")).toBe(true);
  });

  it("answers 503 promptly when the database stalls mid-ingest, and recovers by itself once it is back", async () => {
    const batch = smallRun("stalled", 4);
    const stalled = proxy.faultOn(INSERT_EVENTS, "stall");
    const answer = await ingest(batch);
    await stalled;
    expectUnavailable(answer);
    console.info(`[faults] stalled mid-ingest: 503 after ${answer.ms} ms`);

    // While it stays hung: other writers, readers and the health check all get 503, none hangs.
    const others = await Promise.all([ingest(smallRun("during-stall-a", 2)), ingest(smallRun("during-stall-b", 2))]);
    for (const other of others) expectUnavailable(other);
    const read = await timed(() => listRunsRoute(authed("/api/v1/runs")));
    expectUnavailable(read);
    const check = await askHealth();
    expectUnavailable(check);
    expect(check.ms).toBeLessThan(5_000);
    expect(check.body).toMatchObject({ ok: false, database: "postgres" });
    console.info(
      `[faults] while stalled: ingest 503 after ${others.map((o) => o.ms).join("/")} ms, runs list after ${read.ms} ms, health after ${check.ms} ms`,
    );

    proxy.heal();
    const retried = await ingest(batch);
    expect(retried.status).toBe(207);
    expect(retried.body.results!.every((r) => r.status === "created" || r.status === "duplicate")).toBe(true);
    for (const name of ["during-stall-a", "during-stall-b"]) expect((await ingest(smallRun(name, 2))).status).toBe(207);
    expect((await askHealth()).status).toBe(200);
  }, 90_000);

  it("answers 503 when connections drop mid-ingest and while the database refuses them, and recovers", async () => {
    const batch = smallRun("dropped", 4);
    const dropped = proxy.faultOn(INSERT_EVENTS, "drop");
    const answer = await ingest(batch);
    await dropped;
    expectUnavailable(answer);

    const refused = await ingest(smallRun("while-down", 2));
    expectUnavailable(refused);
    const check = await askHealth();
    expectUnavailable(check);
    const exported = await timed(() => reviewerExportRoute(authed("/api/v1/reviewer/candidates/export?format=csv")));
    expectUnavailable(exported);
    // An OpenTelemetry exporter is told to retry the same way (exporters retry on 503).
    const otlp = await timed(() => otlpTracesRoute(otlpExport("otlp-while-down")));
    expectUnavailable(otlp);
    // Comments: a read and a write are 503 too, never 500.
    const runParams = { params: Promise.resolve({ runId: "before" }) };
    expectUnavailable(await timed(() => listCommentsRoute(authed("/api/v1/runs/before/comments"), runParams)));
    const comment = new Request("http://cuescope.test/api/v1/runs/before/comments", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ body: "while down" }),
    });
    expectUnavailable(await timed(() => createCommentRoute(comment, runParams)));
    // Opening a database while it is unreachable fails fast with an error answered as 503.
    const opening = await timed(() =>
      openDatabase({ url: proxyUrl(), timeouts: TIMEOUTS })
        .then(async (db) => (await db.close(), "opened"))
        .catch((error) => error),
    );
    expect(isTransientDatabaseError(opening.value)).toBe(true);
    expect(opening.ms).toBeLessThan(PROMPT_MS);
    console.info(
      `[faults] dropped mid-ingest: 503 after ${answer.ms} ms; refused: ingest after ${refused.ms} ms, health after ${check.ms} ms, open after ${opening.ms} ms`,
    );

    proxy.heal();
    expect((await ingest(batch)).status).toBe(207);
    expect((await ingest(smallRun("while-down", 2))).status).toBe(207);
    const exportedAfter = await otlpTracesRoute(otlpExport("otlp-while-down"));
    expect(exportedAfter.status).toBe(200);
    expect(await exportedAfter.json()).toEqual({});
    expect((await listCommentsRoute(authed("/api/v1/runs/before/comments"), { params: Promise.resolve({ runId: "before" }) })).status).toBe(
      200,
    );
    acknowledged.add("otlp-while-down-1");
    expect((await askHealth()).status).toBe(200);
  }, 90_000);

  it("never answered 500, and lost nothing it acknowledged; re-sent batches are stored exactly once", async () => {
    expect(answers.map((a) => a.status).filter((s) => s !== 207 && s !== 503)).toEqual([]);
    const rows = await direct.prisma.event.groupBy({ by: ["eventId"], _count: { _all: true } });
    const stored = new Map(rows.map((row) => [row.eventId, row._count._all]));
    for (const id of acknowledged) expect(stored.get(id), id).toBe(1);
    // Every batch that got a 503 was re-sent until it got a 207: each of its events exactly once.
    expect([...sent].filter((id) => stored.get(id) !== 1)).toEqual([]);
    expect(stored.size).toBe(sent.size);
    const runs = await direct.prisma.run.findMany({ select: { runId: true, eventCount: true } });
    for (const run of runs) expect(run.eventCount, run.runId).toBe(rows.filter((r) => r.eventId.startsWith(`${run.runId}-`)).length);
    expect(proxy.accepted).toBeGreaterThan(1); // the pool reconnected on its own
  });

  function proxyUrl(): string {
    const url = new URL(scratch.url);
    url.host = `127.0.0.1:${proxy.port}`;
    return url.toString();
  }

  /** An OTLP/JSON export of one span event that is the telemetry event `<runId>-1`. */
  function otlpExport(runId: string): Request {
    sent.add(`${runId}-1`);
    const attribute = (key: string, value: object) => ({ key, value });
    const span = {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      name: "turn 1",
      startTimeUnixNano: "1764410400000000000",
      events: [
        {
          timeUnixNano: "1764410400000000000",
          attributes: [
            attribute("cuescope.type", { stringValue: "meter.requests" }),
            attribute("cuescope.id", { stringValue: `${runId}-1` }),
            attribute("cuescope.run_id", { stringValue: runId }),
            attribute("cuescope.turn", { intValue: "1" }),
            attribute("cuescope.body.used", { intValue: "1" }),
          ],
        },
      ],
    };
    return new Request("http://cuescope.test/api/v1/otlp/v1/traces", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }),
    });
  }

  function authed(path: string): Request {
    return new Request(`http://cuescope.test${path}`, { headers: { authorization: `Bearer ${key}` } });
  }
});

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; status: number; retryAfter: string | null }> {
  const started = Date.now();
  const value = await work();
  const response = value instanceof Response ? value : undefined;
  if (response) await response.text();
  return { value, ms: Date.now() - started, status: response?.status ?? 0, retryAfter: response?.headers.get("retry-after") ?? null };
}
