/**
 * Ingestion throughput through the HTTP API (production server, real PostgreSQL, batches of 500)
 * next to raw `pg` multi-row INSERTs of the same rows into the same table, in one run; and the
 * decisions endpoint for a 5,000-turn run, cold and cached.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { Client } from "pg";
import { generateEtfRun, type TRawEvent } from "@/lib/demo/etf-run";
import { createKey } from "@/lib/server/auth/keys";
import { openDatabase, type Database } from "@/lib/server/db";
import { rawEventRow, rawInsert } from "./raw-insert";
import { fmt, median, table, verdict, type BenchContext, type BenchSection } from "./common";
import { env } from "@/lib/server/env";

const TOTAL_EVENTS = 100_000;
const BATCH = 500;
const PORT = 3311;
const BASE = `http://127.0.0.1:${PORT}`;

export function ingestSection(): BenchSection {
  return {
    name: "ingest",
    description: `${fmt.int(TOTAL_EVENTS)} events through POST /api/v1/ingest (batches of ${BATCH}) vs raw pg multi-row INSERTs, PostgreSQL; decisions endpoint, 5,000 turns`,
    run,
  };
}

async function run(ctx: BenchContext): Promise<void> {
  const adminUrl = env("DATABASE_URL") ?? "postgresql://postgres@127.0.0.1:5432/test";
  if (!existsSync(".next/BUILD_ID")) {
    ctx.print("skipped: no production build (run `npm run build` first)");
    return;
  }
  const name = `cuescope_bench_${randomBytes(4).toString("hex")}`;
  try {
    await admin(adminUrl, `CREATE DATABASE "${name}"`);
  } catch (error) {
    ctx.print(`skipped: no PostgreSQL at ${adminUrl} (${(error as Error).message})`);
    return;
  }
  const url = withDatabase(adminUrl, name);
  let server: ChildProcess | undefined;
  let db: Database | undefined;
  try {
    db = await openDatabase({ url });
    const { secret } = await createKey(db, "bench-http");
    server = await startServer(url, ctx);

    ctx.progress("generating runs ...");
    const events = benchEvents(TOTAL_EVENTS);
    const httpSeconds = await timeHttp(events, secret, ctx);
    const rawSeconds = await timeRawInserts(db, url, events, ctx);
    const httpRate = events.length / httpSeconds;
    const rawRate = events.length / rawSeconds;
    ctx.print(
      table(
        ["path", "events", "seconds", "events/s"],
        [
          ["HTTP API, batches of 500", fmt.int(events.length), httpSeconds.toFixed(2), fmt.int(httpRate)],
          ["raw pg INSERT, 500 rows each", fmt.int(events.length), rawSeconds.toFixed(2), fmt.int(rawRate)],
        ],
      ),
    );
    ctx.print(`ratio HTTP / raw = ${fmt.ratio(httpRate / rawRate)}  (target >= 0.5)  ${httpRate / rawRate >= 0.5 ? "PASS" : "MISS"}`);

    await timeDecisions(db, secret, ctx);
  } finally {
    server?.kill("SIGTERM");
    await db?.close();
    await admin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
  }
}

/** Realistic runs (1,000 turns each) until `total` events; ids unique across runs. */
function benchEvents(total: number, turns = 1000): TRawEvent[] {
  const events: TRawEvent[] = [];
  for (let seed = 1; events.length < total; seed++) {
    const runId = `bench-${seed}`;
    for (const e of generateEtfRun({ runId, seed, turns }).events) {
      if (events.length === total) break;
      events.push({ ...e, id: `${runId}:${e.id}` });
    }
  }
  return events;
}

async function timeHttp(events: readonly TRawEvent[], key: string, ctx: BenchContext): Promise<number> {
  const batches: TRawEvent[][] = [];
  for (let i = 0; i < events.length; i += BATCH) batches.push(events.slice(i, i + BATCH));
  let next = 0;
  let done = 0;
  const started = process.hrtime.bigint();
  // Two agents sending at once, as on a 2-core machine.
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++];
      const response = await fetch(`${BASE}/api/v1/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ batch }),
      });
      const body = (await response.json()) as { summary?: { created: number } };
      if (response.status !== 207 || body.summary?.created !== batch.length)
        throw new Error(`ingest answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
      done += batch.length;
      ctx.progress(`HTTP ingest ${fmt.int(done)}/${fmt.int(events.length)}`);
    }
  };
  await Promise.all([worker(), worker()]);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function timeRawInserts(db: Database, url: string, events: readonly TRawEvent[], ctx: BenchContext): Promise<number> {
  const project = await db.prisma.project.create({ data: { name: "bench-raw" } });
  const runIds = [...new Set(events.map((e) => e.runId))];
  await db.prisma.run.createMany({ data: runIds.map((runId) => ({ projectId: project.id, runId })) });
  const runPk = new Map((await db.prisma.run.findMany({ where: { projectId: project.id } })).map((r) => [r.runId, r.id]));
  // The same row values the service writes, prepared outside the timing.
  const rows = events.map((e) => rawEventRow(project.id, runPk.get(e.runId)!, e));
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const started = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i += BATCH) {
      const slice = rows.slice(i, i + BATCH);
      const { sql, params } = rawInsert("events", slice);
      await client.query(sql, params);
      ctx.progress(`raw INSERT ${fmt.int(i + slice.length)}/${fmt.int(rows.length)}`);
    }
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await client.end();
  }
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

async function startServer(url: string, ctx: BenchContext): Promise<ChildProcess> {
  ctx.progress("starting the production server ...");
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1", CUESCOPE_SERVER_URL: BASE },
    stdio: "ignore",
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${BASE}/api/v1/health`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill();
  throw new Error("the server did not answer /api/v1/health within 60 s");
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
