/**
 * Ingestion as agents reach it: over HTTP against a started production server (scripts/server.mjs,
 * rebuild workers off: CUESCOPE_WORKERS=0), on PostgreSQL, side by side in one run, round by round:
 *
 * - JSON: `POST /api/v1/ingest`, two senders of 500-event batches, vs the baseline — the same rows
 *   by plain multi-row `INSERT … ON CONFLICT DO NOTHING` into `CREATE TABLE … (LIKE events
 *   INCLUDING ALL)` (same columns and indexes), two connections, 500 rows per statement. Target:
 *   JSON ≥ 0.6× the baseline's events/s.
 * - OTLP: `POST /api/v1/otlp/v1/logs`, protobuf (the OpenTelemetry SDK's own serializer), the same
 *   kind of events as log records carrying cuescope.* attributes, 500 per export, two senders.
 *   Target: per event at most 1.5× the time of JSON ingest.
 *
 * Then the decisions endpoint for a 5,000-turn run, cold and cached (a server with its workers on).
 * `CUESCOPE_BENCH_CPU_PROF=<dir>` starts the ingest server under `node --cpu-prof` into that
 * directory (one .cpuprofile when it stops), to see where the server's time goes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Client } from "pg";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { ProtobufLogsSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { generateEtfRun, type TRawEvent } from "@/lib/demo/etf-run";
import { createKey } from "@/lib/server/auth/keys";
import { openDatabase, type Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { createScratchPostgres } from "@/lib/server/testing/databases";
import { rawEventRow, rawInsert } from "./raw-insert";
import { benchPort, fmt, median, table, verdict, type BenchContext, type BenchSection } from "./common";

/** Events per path per round; rounds alternate the order of the paths. */
const ROUND_EVENTS = 40_000;
const ROUNDS = 3;
/** Each round is sent in parts, the paths taking turns part by part (ORDERS). */
const PARTS = 4;
const WARMUP_EVENTS = 6_000;
const BATCH = 500;
const SENDERS = 2;
const RAW_TABLE = "events_raw_copy";
const JSON_TARGET = 0.6;
const OTLP_TARGET = 1.5;
/** Inside the bench's port range (3300–3399), away from the other sections' ports. */
const PORT = benchPort(3311);
const BASE = `http://127.0.0.1:${PORT}`;

export function ingestSection(): BenchSection {
  return {
    name: "ingest",
    description:
      `HTTP ingest on a started server (workers off), ${SENDERS} senders of ${BATCH}-event batches: JSON vs raw multi-row INSERTs ` +
      `into a LIKE-events copy (${SENDERS} connections), OTLP protobuf vs JSON per event, ${ROUNDS} rounds of ${fmt.int(ROUND_EVENTS)} events; ` +
      `decisions endpoint, 5,000 turns — PostgreSQL`,
    run,
  };
}

async function run(ctx: BenchContext): Promise<void> {
  const adminUrl = env("DATABASE_URL") ?? "postgresql://postgres@127.0.0.1:5432/test";
  if (!existsSync(".next/BUILD_ID")) {
    ctx.print("skipped: no production build (run `npm run build` first)");
    return;
  }
  try {
    await withScratch(adminUrl, (db, url, key) => timeIngest(ctx, db, url, key));
    // Its own database: the rebuilds of the ingest part's runs are not in its way.
    await withScratch(adminUrl, (db, url, key) => withServer(ctx, url, {}, () => timeDecisions(db, key, ctx)));
  } catch (error) {
    if (!(error instanceof NoPostgres)) throw error;
    ctx.print(`skipped: no PostgreSQL at ${adminUrl} (${error.message})`);
  }
}

class NoPostgres extends Error {}

/** A scratch database (migrated) with a key of the project "bench-http", dropped afterwards. */
async function withScratch(adminUrl: string, work: (db: Database, url: string, key: string) => Promise<void>): Promise<void> {
  const scratch = await createScratchPostgres(adminUrl, "cuescope_bench_ingest").catch((error: Error) => {
    throw new NoPostgres(error.message);
  });
  let db: Database | undefined;
  try {
    db = await openDatabase({ url: scratch.url });
    const { secret } = await createKey(db, "bench-http");
    await work(db, scratch.url, secret);
  } finally {
    await db?.close();
    await scratch.drop().catch(() => {});
  }
}

/**
 * One path's totals over a round: wall-clock seconds, events, and the CPU seconds each process
 * spent meanwhile — the server, this process (the senders, or the baseline's driver), and
 * PostgreSQL's backends of the bench database (NaN where /proc does not show them).
 */
interface Totals {
  seconds: number;
  events: number;
  cpu: CpuSeconds;
}
interface CpuSeconds {
  server: number;
  client: number;
  postgres: number;
}
type Path = "json" | "raw" | "otlp";
type Round = Record<Path, Totals>;

/** The orders the paths take turns in, part after part, so a busier stretch of a shared machine hits each alike. */
const ORDERS: Path[][] = [
  ["json", "raw", "otlp"],
  ["raw", "otlp", "json"],
  ["otlp", "json", "raw"],
  ["json", "otlp", "raw"],
  ["raw", "json", "otlp"],
  ["otlp", "raw", "json"],
];

async function timeIngest(ctx: BenchContext, db: Database, url: string, key: string): Promise<void> {
  const profileDir = process.env.CUESCOPE_BENCH_CPU_PROF;
  const { id: projectId } = await db.prisma.project.findUniqueOrThrow({ where: { name: "bench-http" } });
  // Every request body and every baseline row is made before the server starts: a client busy for
  // seconds between requests would find its kept-alive connections closed by the server.
  ctx.progress("generating events and encoding requests ...");
  const part = ROUND_EVENTS / PARTS;
  const warm = {
    json: prepare("warm-json", WARMUP_EVENTS, projectId, "json"),
    otlp: prepare("warm-otlp", WARMUP_EVENTS, projectId, "otlp"),
  };
  const prepared = Array.from({ length: ROUNDS * PARTS }, (_, i) => ({
    json: prepare(`p${i + 1}-json`, part, projectId, "json"),
    otlp: prepare(`p${i + 1}-otlp`, part, projectId, "otlp"),
  }));
  const raw = await rawInserter(db, url);
  const rounds: Round[] = [];
  try {
    await withServer(
      ctx,
      url,
      { CUESCOPE_WORKERS: "0" },
      async (server) => {
        ctx.progress("warming up ...");
        await sendJson(key, warm.json, () => {});
        await raw.insert(warm.json.rawRows, () => {});
        await sendOtlp(key, warm.otlp, () => {});
        for (let r = 0; r < ROUNDS; r++) {
          const zero = (): Totals => ({ seconds: 0, events: 0, cpu: { server: 0, client: 0, postgres: 0 } });
          const round: Round = { json: zero(), raw: zero(), otlp: zero() };
          for (let p = 0; p < PARTS; p++) {
            const { json, otlp } = prepared[r * PARTS + p];
            for (const path of ORDERS[(r * PARTS + p) % ORDERS.length]) {
              const show = (done: number) =>
                ctx.progress(`round ${r + 1}/${ROUNDS}, part ${p + 1}/${PARTS}: ${path} ${fmt.int(done)}/${fmt.int(part)}`);
              const cpuBefore = await cpuNow(server, raw);
              const seconds =
                path === "json"
                  ? await sendJson(key, json, show)
                  : path === "otlp"
                    ? await sendOtlp(key, otlp, show)
                    : await raw.insert(json.rawRows, show);
              round[path].seconds += seconds;
              round[path].events += part;
              const spent = cpuBetween(cpuBefore, await cpuNow(server, raw));
              for (const k of ["server", "client", "postgres"] as const) round[path].cpu[k] += spent[k];
            }
          }
          rounds.push(round);
        }
        const stored = await db.prisma.event.count({ where: { projectId } });
        const expected = 2 * WARMUP_EVENTS + 2 * ROUNDS * ROUND_EVENTS;
        if (stored !== expected) throw new Error(`the server stored ${stored} events, expected ${expected}`);
      },
      profileDir,
    );
  } finally {
    await raw.close();
  }

  const rate = (t: Totals) => fmt.int(t.events / t.seconds);
  ctx.print(
    table(
      ["round", "JSON events/s", "raw INSERT events/s", "JSON/raw", "OTLP events/s", "OTLP/JSON time per event"],
      rounds.map((m, i) => [
        String(i + 1),
        rate(m.json),
        rate(m.raw),
        fmt.ratio(m.raw.seconds / m.json.seconds),
        rate(m.otlp),
        fmt.ratio(m.otlp.seconds / m.json.seconds),
      ]),
    ),
  );
  ctx.print();
  ctx.print("CPU per event, all rounds (µs; where the time goes on a machine whose cores every process shares):");
  const perEvent = (path: Path, k: keyof CpuSeconds) => {
    const events = rounds.reduce((sum, m) => sum + m[path].events, 0);
    return (rounds.reduce((sum, m) => sum + m[path].cpu[k], 0) / events) * 1e6;
  };
  const cell = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "—");
  ctx.print(
    table(
      ["path", "server", "sender (this process)", "PostgreSQL", "total"],
      (
        [
          ["JSON ingest", "json"],
          ["raw INSERT", "raw"],
          ["OTLP ingest", "otlp"],
        ] as const
      ).map(([label, path]) => {
        const parts = (["server", "client", "postgres"] as const).map((k) => perEvent(path, k));
        return [label, ...parts.map(cell), cell(parts.reduce((a, b) => a + b, 0))];
      }),
    ),
  );
  const jsonRatios = rounds.map((m) => m.raw.seconds / m.json.seconds);
  const otlpRatios = rounds.map((m) => m.otlp.seconds / m.json.seconds);
  const range = (values: number[]) => `${fmt.ratio(Math.min(...values))}–${fmt.ratio(Math.max(...values))}`;
  const jsonRatio = median(jsonRatios);
  const otlpRatio = median(otlpRatios);
  ctx.print(
    `JSON ingest / raw INSERT (events/s) = ${fmt.ratio(jsonRatio)} (rounds ${range(jsonRatios)})  target >= ${JSON_TARGET}  ${jsonRatio >= JSON_TARGET ? "PASS" : "MISS"}`,
  );
  ctx.print(
    `OTLP protobuf / JSON ingest (time per event) = ${fmt.ratio(otlpRatio)} (rounds ${range(otlpRatios)})  target <= ${OTLP_TARGET}  ${verdict(otlpRatio, OTLP_TARGET)}`,
  );
  if (profileDir) ctx.print(`server CPU profile written to ${profileDir}`);
}

/** Requests as each sender sends them: the body, and how many events it holds. */
type Requests<B> = { body: B; events: number }[][];

/** A round's events for one path: each sender's requests, made before the clock starts; for JSON, also the baseline's rows. */
interface Prepared {
  json: Requests<string>;
  otlp: Requests<Uint8Array<ArrayBuffer>>;
  /** The rows the service stores for these events, one list per baseline connection. */
  rawRows: unknown[][][];
}

/**
 * Runs of up to 1,000 turns until `total` events, ids unique across runs, dealt to the senders as
 * agents send them: sender k sends runs k, k + SENDERS, …, each in batches of 500. The baseline's
 * connection k writes the same rows as sender k (with a new run key per run, as the service gives).
 */
function prepare(prefix: string, total: number, projectId: string, path: "json" | "otlp", turns = 1000): Prepared {
  const json: Requests<string> = Array.from({ length: SENDERS }, () => []);
  const otlp: Requests<Uint8Array<ArrayBuffer>> = Array.from({ length: SENDERS }, () => []);
  const rawRows: unknown[][][] = Array.from({ length: SENDERS }, () => []);
  let count = 0;
  for (let seed = 1; count < total; seed++) {
    const runId = `bench-${prefix}-${seed}`;
    const events: TRawEvent[] = [];
    for (const e of generateEtfRun({ runId, seed, turns }).events) {
      if (count === total) break;
      events.push({ ...e, id: `${runId}:${e.id}` });
      count++;
    }
    const k = (seed - 1) % SENDERS;
    const runPk = randomUUID();
    for (let i = 0; i < events.length; i += BATCH) {
      const batch = events.slice(i, i + BATCH);
      if (path === "json") json[k].push({ body: JSON.stringify({ batch }), events: batch.length });
      else otlp[k].push({ body: otlpLogsBody(batch), events: batch.length });
    }
    if (path === "json") for (const e of events) rawRows[k].push(rawEventRow(projectId, runPk, e));
  }
  return { json, otlp, rawRows };
}

/** Each sender's requests one after another, all senders at once; the seconds taken. */
async function sendAll<B>(requests: Requests<B>, send: (body: B, events: number) => Promise<void>, onEvents: (done: number) => void) {
  let done = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    requests.map(async (mine) => {
      for (const { body, events } of mine) {
        await send(body, events);
        onEvents((done += events));
      }
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function sendJson(key: string, prepared: Prepared, onEvents: (done: number) => void): Promise<number> {
  return sendAll(
    prepared.json,
    async (body, events) => {
      const response = await fetch(`${BASE}/api/v1/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body,
      });
      const answer = (await response.json()) as { summary?: { created: number } };
      if (response.status !== 207 || answer.summary?.created !== events)
        throw new Error(`ingest answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    },
    onEvents,
  );
}

function sendOtlp(key: string, prepared: Prepared, onEvents: (done: number) => void): Promise<number> {
  return sendAll(
    prepared.otlp,
    async (body) => {
      const response = await fetch(`${BASE}/api/v1/otlp/v1/logs`, {
        method: "POST",
        headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${key}` },
        body,
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const answer = response.status === 200 ? ProtobufLogsSerializer.deserializeResponse(bytes) : null;
      // int64 fields decode as a number or a Long: compared as text.
      if (!answer || String(answer.partialSuccess?.rejectedLogRecords ?? 0) !== "0")
        throw new Error(
          `OTLP logs answered ${response.status}: ${answer ? JSON.stringify(answer.partialSuccess) : Buffer.from(bytes).toString().slice(0, 300)}`,
        );
    },
    onEvents,
  );
}

const otelResource = resourceFromAttributes({ "service.name": "bench-agent" });

/**
 * An ExportLogsServiceRequest as the OpenTelemetry SDK encodes it: one log record per event,
 * its fields as cuescope.* attributes (docs/contract/otlp.md): a flat body field by field, any other
 * as JSON text in cuescope.body.
 */
function otlpLogsBody(events: TRawEvent[]): Uint8Array<ArrayBuffer> {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource: otelResource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  const logger = provider.getLogger("bench-agent");
  for (const event of events) {
    const attributes: Record<string, string | number | boolean> = {
      "cuescope.type": event.type,
      "cuescope.id": event.id,
      "cuescope.run_id": event.runId,
    };
    if ("turn" in event && typeof event.turn === "number") attributes["cuescope.turn"] = event.turn;
    const body = event.body as Record<string, unknown>;
    const flat = Object.values(body).every((v) => ["string", "number", "boolean"].includes(typeof v));
    if (flat) for (const [field, value] of Object.entries(body)) attributes[`cuescope.body.${field}`] = value as string | number | boolean;
    else attributes["cuescope.body"] = JSON.stringify(body);
    logger.emit({ timestamp: new Date(event.ts), severityNumber: SeverityNumber.INFO, eventName: event.type, attributes });
  }
  // A copy on its own ArrayBuffer: what fetch takes as a body.
  return new Uint8Array(ProtobufLogsSerializer.serializeRequest(exporter.getFinishedLogRecords())!);
}

/** The baseline's writer: `SENDERS` connections, each writing its sender's runs, 500 rows per INSERT. */
async function rawInserter(db: Database, url: string) {
  await db.prisma.$executeRawUnsafe(`CREATE TABLE "${RAW_TABLE}" (LIKE "events" INCLUDING ALL)`);
  const clients: Client[] = [];
  for (let i = 0; i < SENDERS; i++) {
    const client = new Client({ connectionString: url });
    await client.connect();
    clients.push(client);
  }
  return {
    /** Writes the rows (prepared already, one list per connection); the seconds the INSERTs took. */
    async insert(rows: unknown[][][], onEvents: (done: number) => void): Promise<number> {
      let done = 0;
      const started = process.hrtime.bigint();
      await Promise.all(
        clients.map(async (client, k) => {
          for (let i = 0; i < rows[k].length; i += BATCH) {
            const slice = rows[k].slice(i, i + BATCH);
            const { sql, params } = rawInsert(RAW_TABLE, slice);
            await client.query(sql, params);
            onEvents((done += slice.length));
          }
        }),
      );
      return Number(process.hrtime.bigint() - started) / 1e9;
    },
    /** The PostgreSQL backends serving the bench database (the server's pool, the baseline's connections). */
    async backendPids(): Promise<number[]> {
      const { rows } = await clients[0].query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
      return rows.map((row) => row.pid);
    },
    async close() {
      await Promise.all(clients.map((client) => client.end()));
    },
  };
}

async function timeDecisions(db: Database, key: string, ctx: BenchContext): Promise<void> {
  ctx.progress("generating a 5,000-turn run ...");
  const runId = "bench-decisions-5000";
  const events = generateEtfRun({ runId, seed: 99, turns: 5000 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
  for (let i = 0; i < events.length; i += BATCH) {
    await fetch(`${BASE}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ batch: events.slice(i, i + BATCH) }),
    });
  }
  const get = async () => {
    const started = process.hrtime.bigint();
    const response = await fetch(`${BASE}/api/v1/runs/${runId}/decisions`, { headers: { authorization: `Bearer ${key}` } });
    const bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 200) throw new Error(`decisions answered ${response.status}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes };
  };
  const cold: number[] = [];
  const cached: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ctx.repeats; i++) {
    ctx.progress(`decisions endpoint ${i + 1}/${ctx.repeats}`);
    await db.prisma.runDecisionsCache.deleteMany({ where: { run: { runId } } });
    const first = await get();
    cold.push(first.ms);
    bytes = first.bytes;
    cached.push((await get()).ms);
  }
  ctx.print();
  ctx.print(`decisions endpoint, ${fmt.int(events.length)} events / 5,000 turns, ${fmt.mb(bytes)} MB of JSON:`);
  ctx.print(
    table(
      ["request", "median ms", "min ms", "max ms"],
      [
        ["cold (rebuild + cache)", fmt.ms(median(cold)), fmt.ms(Math.min(...cold)), fmt.ms(Math.max(...cold))],
        ["cached", fmt.ms(median(cached)), fmt.ms(Math.min(...cached)), fmt.ms(Math.max(...cached))],
      ],
    ),
  );
  ctx.print(`cached / cold = ${fmt.ratio(median(cached) / median(cold))}  ${verdict(median(cached), median(cold))}`);
}

/**
 * Runs `work` against the production server (scripts/server.mjs, as `npm start` runs it after
 * migrating, which openDatabase in this process has done) on the database, stopped afterwards.
 */
async function withServer<T>(
  ctx: BenchContext,
  url: string,
  extraEnv: Record<string, string>,
  work: (server: { cpuSeconds(): number }) => Promise<T>,
  profileDir?: string,
): Promise<T> {
  ctx.progress("starting the production server ...");
  const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "scripts/server.mjs"], {
    env: {
      ...process.env,
      ...extraEnv,
      DATABASE_URL: url,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      NEXT_TELEMETRY_DISABLED: "1",
      CUESCOPE_SERVER_URL: BASE,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  child.stderr?.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const exited = new Promise((done) => child.once("exit", done));
  try {
    let up = false;
    for (let i = 0; i < 240 && !up; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log}`);
      up = await fetch(`${BASE}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await new Promise((done) => setTimeout(done, 500));
    }
    if (!up) throw new Error(`the server did not answer /api/v1/health within 120 s:\n${log}`);
    return await work({ cpuSeconds: () => cpuSecondsOf(child.pid!) });
  } catch (error) {
    await new Promise((done) => setTimeout(done, 1000)); // let a dying server's last words arrive
    const cause = (error as Error).cause;
    throw new Error(`${(error as Error).message}${cause ? ` (${String(cause)})` : ""}; the server's last output:\n${log}`, {
      cause: error,
    });
  } finally {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  }
}

/** CPU seconds so far of the server, this process, and each PostgreSQL backend of the bench database. */
interface CpuSnapshot {
  server: number;
  client: number;
  backends: Map<number, number>;
}

async function cpuNow(server: { cpuSeconds(): number }, raw: { backendPids(): Promise<number[]> }): Promise<CpuSnapshot> {
  const usage = process.cpuUsage();
  const pids = await raw.backendPids();
  return {
    server: server.cpuSeconds(),
    client: (usage.user + usage.system) / 1e6,
    backends: new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)])),
  };
}

/** What each process spent between two snapshots (a backend that started meanwhile counts whole). */
function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuSeconds {
  let postgres = 0;
  for (const [pid, seconds] of after.backends) postgres += seconds - (before.backends.get(pid) ?? 0);
  return { server: after.server - before.server, client: after.client - before.client, postgres };
}

/** A process's CPU time so far (user + system, all its threads) from /proc; NaN where there is no /proc. */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15 (clock ticks, 100 per second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /s, "")
      .split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}
