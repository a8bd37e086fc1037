/**
 * Bench section "rebuild": how long `rebuild` takes next to simply reading the same run.
 * For each size, a run of the ETF agent is generated as JSONL text; then, in this process,
 * (a) `JSON.parse` of every line and (b) `rebuild` of the already-validated events (validation
 * with ZEvent happens outside the timed part) are each timed `repeats` times, interleaved, and the
 * medians are compared. Targets: rebuild/parse <= 1.0, rebuild(2n)/rebuild(n) <= 2.2.
 *
 * Then a live run: the largest size delivered in batches of `batchTurns` turns, each resumed
 * (`resumeRebuild`) from the previous batch's checkpoint with the events of turns >= its nextTurn,
 * as a background rebuild job does. The median time per batch over the run's last batches is
 * compared with a full `rebuild` of the whole run. Target: incremental/full <= 0.02.
 *
 * Then contract §10's extra cost: of the smallest run, the rebuild job's pure work (`rebuild` and its
 * trend buckets, `trendBuckets`) timed with the delivered-vs-dropped and fatigue counts and without
 * them (the buckets as before §10), interleaved. The job also reads, parses and stores, so the extra
 * share of the whole job is smaller still. Target: <= 10% extra.
 */
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild, rebuildWithCheckpoint, resumeRebuild, type CheckpointedRebuild } from "@/lib/core";
import { trendBuckets } from "@/lib/trends/buckets";
import { generateEtfRun, toJsonl } from "@/lib/demo/etf-run";
import { collectGarbage, fmt, median, table, timeMs, verdict, type BenchContext, type BenchSection } from "./common";

export const RATIO_TARGET = 1.0;
export const SCALING_TARGET = 2.2;
export const INCREMENTAL_TARGET = 0.02;
export const EFFECT_COST_TARGET = 0.1;

export interface RebuildMeasurement {
  turns: number;
  events: number;
  bytes: number;
  parseMs: number;
  rebuildMs: number;
  /** Fastest and slowest repetition, to show how noisy the machine was. */
  rebuildRange: [number, number];
  findings: number;
}

export interface RebuildBenchOptions {
  sizes?: readonly number[];
  seed?: number;
  /** Turns per batch of the live run (the incremental line). */
  batchTurns?: number;
}

export interface IncrementalMeasurement {
  turns: number;
  batches: number;
  /** Median time of one batch's resume over the run's last `timedBatches` batches. */
  resumeMs: number;
  resumeMaxMs: number;
  timedBatches: number;
  /** Median time of a full rebuild of the whole run. */
  fullMs: number;
  checkpointBytes: number;
}

/** The run as JSONL text only: the generator's own structures are garbage before anything is timed. */
function generateJsonl(ctx: BenchContext, turns: number, seed: number): string {
  const run = generateEtfRun({
    turns,
    seed,
    anomalies: true,
    runId: `bench-${turns}`,
    onProgress: (phase, done, total) => ctx.progress(`rebuild: generating ${turns} turns: ${phase} ${done}/${total}`),
  });
  return toJsonl(run.events);
}

export function measureRebuild(ctx: BenchContext, turns: number, seed: number): RebuildMeasurement {
  const jsonl = generateJsonl(ctx, turns, seed);
  const lines = jsonl.split("\n").filter((line) => line.length > 0);
  ctx.progress(`rebuild: validating ${lines.length} events`);
  const events: TEvent[] = lines.map((line) => ZEvent.parse(JSON.parse(line)));

  let sink = 0;
  const parseOnce = () => {
    for (const line of lines) sink += (JSON.parse(line) as { id: string }).id.length;
  };
  const rebuildOnce = () => {
    sink += rebuild(events).turns.length;
  };
  ctx.progress(`rebuild: ${turns} turns: warming up`);
  parseOnce();
  const findings = rebuild(events).findings.length;
  rebuildOnce(); // a second round, so the optimizing compiler has settled before timing
  parseOnce();

  const parseTimes: number[] = [];
  const rebuildTimes: number[] = [];
  collectGarbage();
  for (let r = 0; r < ctx.repeats; r++) {
    ctx.progress(`rebuild: ${turns} turns: repetition ${r + 1}/${ctx.repeats}`);
    parseTimes.push(timeMs(parseOnce));
    rebuildTimes.push(timeMs(rebuildOnce));
  }
  if (sink < 0) ctx.print(String(sink)); // keeps the work observable
  return {
    turns,
    events: events.length,
    bytes: Buffer.byteLength(jsonl),
    parseMs: median(parseTimes),
    rebuildMs: median(rebuildTimes),
    rebuildRange: [Math.min(...rebuildTimes), Math.max(...rebuildTimes)],
    findings,
  };
}

/**
 * Delivers the run in batches of `batchTurns` turns, in emission order, and resumes the rebuild
 * after each from the previous checkpoint (JSON round-tripped, as storage keeps it) with the events
 * of turns >= its nextTurn, found through a turn index. The resumes of the last batches are timed;
 * the final decisions are checked against a full rebuild.
 */
export function measureIncremental(ctx: BenchContext, turns: number, seed: number, batchTurns: number): IncrementalMeasurement {
  const lines = generateJsonl(ctx, turns, seed)
    .split("\n")
    .filter((line) => line.length > 0);
  ctx.progress(`rebuild: incremental: validating ${lines.length} events`);
  const events: TEvent[] = lines.map((line) => ZEvent.parse(JSON.parse(line)));
  const turnOf = (event: TEvent) => (event.type === "run.started" || event.type === "run.ended" ? undefined : event.turn);
  // firstAt[t]: the index of the first event of turn >= t (events are in emission order, turns ascending).
  const firstAt: number[] = [];
  events.forEach((event, i) => {
    const turn = turnOf(event);
    if (turn !== undefined) while (firstAt.length <= turn) firstAt.push(i);
  });
  const batchEnds: number[] = [];
  for (let t = batchTurns; t < turns; t += batchTurns) batchEnds.push(firstAt[t]);
  batchEnds.push(events.length);

  const timedBatches = Math.min(100, batchEnds.length - 1);
  const resumeTimes: number[] = [];
  let result: CheckpointedRebuild = rebuildWithCheckpoint(events.slice(0, batchEnds[0]));
  for (let b = 1; b < batchEnds.length; b++) {
    if (b % 100 === 0) ctx.progress(`rebuild: incremental: batch ${b}/${batchEnds.length}`);
    const checkpoint = JSON.parse(JSON.stringify(result.checkpoint)) as CheckpointedRebuild["checkpoint"];
    if (!checkpoint) {
      result = rebuildWithCheckpoint(events.slice(0, batchEnds[b]));
      continue;
    }
    const tail = events.slice(firstAt[checkpoint.nextTurn] ?? batchEnds[b - 1], batchEnds[b]);
    const previous = { decisions: result.decisions, checkpoint };
    const timed = b >= batchEnds.length - timedBatches;
    const start = process.hrtime.bigint();
    result = resumeRebuild(previous, tail);
    if (timed) resumeTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (JSON.stringify(result.decisions) !== JSON.stringify(rebuild(events)))
    throw new Error("the incremental rebuild differs from the full one");

  const fullTimes: number[] = [];
  let sink = 0;
  collectGarbage();
  for (let r = 0; r < ctx.repeats; r++) {
    ctx.progress(`rebuild: incremental: full rebuild ${r + 1}/${ctx.repeats}`);
    fullTimes.push(timeMs(() => (sink += rebuild(events).turns.length)));
  }
  if (sink < 0) ctx.print(String(sink));
  return {
    turns,
    batches: batchEnds.length,
    resumeMs: median(resumeTimes),
    resumeMaxMs: Math.max(...resumeTimes),
    timedBatches,
    fullMs: median(fullTimes),
    checkpointBytes: Buffer.byteLength(JSON.stringify(result.checkpoint)),
  };
}

/**
 * Contract §10's extra cost: the rebuild job's pure work (`rebuild`, then its trend buckets) with the
 * §10 counts and without them (`trendBuckets(…, { effect: false })`, the counts as before), interleaved.
 */
export function measureEffectCost(ctx: BenchContext, turns: number, seed: number): { withMs: number; withoutMs: number } {
  const events: TEvent[] = generateJsonl(ctx, turns, seed)
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => ZEvent.parse(JSON.parse(line)));
  const turnTimes = new Map<number, number>();
  for (const e of events)
    if (e.type !== "run.started" && e.type !== "run.ended" && !turnTimes.has(e.turn)) turnTimes.set(e.turn, Date.parse(e.ts));
  let sink = 0;
  const job = (effect: boolean) => () => {
    sink += trendBuckets(rebuild(events), events, turnTimes, { effect }).length;
  };
  job(true)();
  job(false)();
  const withTimes: number[] = [];
  const withoutTimes: number[] = [];
  collectGarbage();
  for (let r = 0; r < ctx.repeats; r++) {
    ctx.progress(`rebuild: contract §10's counts: repetition ${r + 1}/${ctx.repeats}`);
    withTimes.push(timeMs(job(true)));
    withoutTimes.push(timeMs(job(false)));
  }
  if (sink < 0) ctx.print(String(sink));
  return { withMs: median(withTimes), withoutMs: median(withoutTimes) };
}

export function reportEffectCost(ctx: BenchContext, turns: number, m: { withMs: number; withoutMs: number }): void {
  const extra = m.withMs / m.withoutMs - 1;
  ctx.print(
    `contract §10 counts (${fmt.int(turns)} turns): rebuild + trend buckets ${fmt.ms(m.withMs)} ms with the delivered-vs-dropped and ` +
      `fatigue counts, ${fmt.ms(m.withoutMs)} ms without: ${(extra * 100).toFixed(1)}% extra (target <= ${EFFECT_COST_TARGET * 100}%)  ` +
      verdict(extra, EFFECT_COST_TARGET),
  );
}

export function reportIncremental(ctx: BenchContext, m: IncrementalMeasurement): void {
  const ratio = m.resumeMs / m.fullMs;
  ctx.print(
    `incremental: ${fmt.int(m.turns)} turns in ${fmt.int(m.batches)} batches; one batch's resume (median of the last ` +
      `${m.timedBatches}) ${m.resumeMs.toFixed(2)} ms (max ${m.resumeMaxMs.toFixed(2)}) vs full rebuild ${fmt.ms(m.fullMs)} ms: ` +
      `incremental/full = ${ratio.toFixed(4)} (target <= ${INCREMENTAL_TARGET})  ${verdict(ratio, INCREMENTAL_TARGET)}; ` +
      `checkpoint ${fmt.int(m.checkpointBytes)} bytes`,
  );
}

export function reportRebuild(ctx: BenchContext, rows: readonly RebuildMeasurement[]): void {
  ctx.print(
    table(
      ["turns", "events", "JSONL MB", "parse ms", "rebuild ms", "rebuild min-max", "rebuild/parse", `target <= ${RATIO_TARGET.toFixed(1)}`],
      rows.map((m) => {
        const ratio = m.rebuildMs / m.parseMs;
        return [
          fmt.int(m.turns),
          fmt.int(m.events),
          fmt.mb(m.bytes),
          fmt.ms(m.parseMs),
          fmt.ms(m.rebuildMs),
          `${fmt.ms(m.rebuildRange[0])}-${fmt.ms(m.rebuildRange[1])}`,
          fmt.ratio(ratio),
          verdict(ratio, RATIO_TARGET),
        ];
      }),
    ),
  );
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1],
      b = rows[i];
    const scaling = b.rebuildMs / a.rebuildMs;
    ctx.print(
      `scaling rebuild(${fmt.int(b.turns)}) / rebuild(${fmt.int(a.turns)}) = ${fmt.ratio(scaling)}` +
        `  (events x${fmt.ratio(b.events / a.events)}; target <= ${SCALING_TARGET.toFixed(1)})  ${verdict(scaling, SCALING_TARGET)}`,
    );
  }
}

export function rebuildSection(options: RebuildBenchOptions = {}): BenchSection {
  const sizes = options.sizes ?? [10_000, 20_000];
  const seed = options.seed ?? 7;
  const batchTurns = options.batchTurns ?? 10;
  const live = Math.max(...sizes);
  return {
    name: "rebuild",
    description:
      `JSON.parse vs rebuild of generated ETF runs (${sizes.map(fmt.int).join(", ")} turns, seed ${seed}), median of repeats; ` +
      `then the ${fmt.int(live)}-turn run resumed in batches of ${batchTurns} turns`,
    run(ctx) {
      const rows = sizes.map((turns) => measureRebuild(ctx, turns, seed));
      reportRebuild(ctx, rows);
      reportIncremental(ctx, measureIncremental(ctx, live, seed, batchTurns));
      const small = Math.min(...sizes);
      reportEffectCost(ctx, small, measureEffectCost(ctx, small, seed));
    },
  };
}
