/**
 * The scale bench's single-run measurements, each on a scratch database of its own served by the
 * production server: a live run polled as it grows, and the first chart of a long run next to a
 * shorter one's.
 */
import { generateEtfRun, type TRawEvent } from "@/lib/demo/etf-run";
import { apiRunPath } from "@/lib/queries/paths";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { progressBar } from "@/scripts/lib/progress";
import { median, type BenchContext } from "./common";
import { createScratchDatabase, ingestRuns, settle, type RunEvents } from "./scale-db";
import { apiClient, latencyOf, sampleUntilStopped, withServer, type Spread } from "./scale-server";

/** A generated run of the ETF agent with anomalies, its event ids made unique per run. */
export function etfRun(runId: string, seed: number, turns: number): RunEvents {
  const bar = progressBar(`generating ${turns.toLocaleString("en-US")} turns`);
  const { events } = generateEtfRun({
    runId,
    seed,
    turns,
    anomalies: true,
    onProgress: (phase, done, total) => bar.update(done, total, phase),
  });
  bar.done();
  return { runId, events: events.map((e) => ({ ...e, id: `${runId}:${e.id}` })) };
}

/** The events in batches of `turns` turns each, as an agent sends them while it works. */
export function batchesByTurns(events: readonly TRawEvent[], turns: number): TRawEvent[][] {
  const batches: TRawEvent[][] = [];
  let current: TRawEvent[] = [];
  let firstTurn: number | undefined;
  for (const event of events) {
    const turn = event.turn;
    if (typeof turn === "number") {
      if (firstTurn === undefined) firstTurn = turn;
      else if (turn >= firstTurn + turns) {
        batches.push(current);
        current = [];
        firstTurn = turn;
      }
    }
    current.push(event);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export interface LivePoll {
  /** Batches sent before this poll, and the run's turns then. */
  batches: number;
  turn: number;
  summaryMs: number;
  timelineMs: number;
  /** Both requests at once, as the run page polls: the wall time until both answered. */
  pollMs: number;
}

export interface LiveRunMeasurement {
  turns: number;
  events: number;
  batches: number;
  polls: LivePoll[];
  /** GET /api/v1/health, polled from the first batch to the last. */
  health: Spread;
}

/**
 * A run of `turns` turns sent over POST /api/v1/ingest in batches of `turnsPerBatch` turns, the run
 * page's poll (summary and whole-run timeline at once) made every so many batches and once at the end.
 */
export async function measureLiveRun(ctx: BenchContext, turns: number, turnsPerBatch: number, polls: number): Promise<LiveRunMeasurement> {
  const database = await createScratchDatabase();
  try {
    const db = await database.open();
    const key = await createKey(db, "live", "bench scale live run").finally(() => db.close());
    const run = etfRun("live-run", 4242, turns);
    const batches = batchesByTurns(run.events, turnsPerBatch);
    const every = Math.max(1, Math.ceil(batches.length / polls));
    ctx.progress("starting the production server ...");
    return await withServer(database, async (base) => {
      const client = apiClient(base, key.secret);
      // A short run sent and read first, so the first timed poll does not pay for loading the routes' code.
      const warmUp = etfRun("warm-up", 1, 20);
      await client.json("POST", "/api/v1/ingest", { batch: warmUp.events });
      // (A run not rebuilt yet answers its timeline with 409: the rebuild is in the background.)
      await Promise.all([client.timeGet(apiRunPath(warmUp.runId)), client.timeGet(apiRunPath(warmUp.runId, "/timeline"), [409])]);
      const summary = apiRunPath(run.runId);
      const timeline = apiRunPath(run.runId, "/timeline");
      const result: LivePoll[] = [];
      const bar = progressBar(`live run: ${batches.length} batches of ${turnsPerBatch} turns, polling every ${every}`);
      let lastTurn = 0;
      const health = sampleUntilStopped(client, "/api/v1/health");
      for (let b = 0; b < batches.length; b++) {
        const answer = await client.json<{ summary: { created: number } }>("POST", "/api/v1/ingest", { batch: batches[b] });
        if (answer.status !== 207 || answer.body.summary.created !== batches[b].length) throw new Error(`ingest answered ${answer.status}`);
        for (const e of batches[b]) if (typeof e.turn === "number") lastTurn = e.turn;
        if ((b + 1) % every === 0 || b === batches.length - 1) {
          const started = process.hrtime.bigint();
          const [summaryMs, timelineMs] = await Promise.all([client.timeGet(summary), client.timeGet(timeline, [409])]);
          result.push({ batches: b + 1, turn: lastTurn, summaryMs, timelineMs, pollMs: Number(process.hrtime.bigint() - started) / 1e6 });
          bar.update(b + 1, batches.length, `poll at turn ${lastTurn}: ${result.at(-1)!.pollMs.toFixed(0)} ms`);
        }
      }
      bar.done();
      const healthTimes = (await health.stop()).map((h) => h.ms);
      return { turns, events: run.events.length, batches: batches.length, polls: result, health: latencyOf(healthTimes) };
    });
  } finally {
    await database.remove();
  }
}

export interface LongRunMeasurement {
  shortTurns: number;
  longTurns: number;
  shortEvents: number;
  longEvents: number;
  /** The first timeline request after ingest and settle (another run's timeline was read before it). */
  shortColdMs: number;
  longColdMs: number;
  /** Medians of the next few requests. */
  shortWarmMs: number;
  longWarmMs: number;
}

/** The run page's first chart request (its whole-run timeline) of a long and a short run, cold. */
export async function measureLongRun(
  ctx: BenchContext,
  shortTurns: number,
  longTurns: number,
  warmRequests = 5,
): Promise<LongRunMeasurement> {
  const database = await createScratchDatabase();
  try {
    const db = await database.open();
    let key: string;
    const runs = [etfRun("warm-up", 1, 100), etfRun("short-run", 2, shortTurns), etfRun("long-run", 3, longTurns)];
    try {
      key = (await createKey(db, "long", "bench scale long run")).secret;
      const { projectId } = await authenticate(db, `Bearer ${key}`);
      const total = runs.reduce((sum, r) => sum + r.events.length, 0);
      const bar = progressBar("loading the long and short runs");
      let sent = 0;
      await ingestRuns(db, projectId, runs, (n) => bar.update((sent += n), total));
      bar.done();
      await settle(db);
    } finally {
      await db.close();
    }
    ctx.progress("starting the production server ...");
    return await withServer(database, async (base) => {
      const client = apiClient(base, key);
      const timeline = (runId: string) => apiRunPath(runId, "/timeline");
      await client.timeGet(timeline("warm-up")); // the route's code, loaded once
      const shortColdMs = await client.timeGet(timeline("short-run"));
      const longColdMs = await client.timeGet(timeline("long-run"));
      const warm = async (runId: string) => {
        const times: number[] = [];
        for (let i = 0; i < warmRequests; i++) times.push(await client.timeGet(timeline(runId)));
        return median(times);
      };
      return {
        shortTurns,
        longTurns,
        shortEvents: runs[1].events.length,
        longEvents: runs[2].events.length,
        shortColdMs,
        longColdMs,
        shortWarmMs: await warm("short-run"),
        longWarmMs: await warm("long-run"),
      };
    });
  } finally {
    await database.remove();
  }
}
