/**
 * Bench section "rebuild": how long `rebuild` takes next to simply reading the same run.
 * For each size, a run of the ETF agent is generated as JSONL text; then, in this process,
 * (a) `JSON.parse` of every line and (b) `rebuild` of the already-validated events (validation
 * with ZEvent happens outside the timed part) are each timed `repeats` times, interleaved, and the
 * medians are compared. Targets: rebuild/parse <= 1.0, rebuild(2n)/rebuild(n) <= 2.2.
 */
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun, toJsonl } from "@/lib/demo/etf-run";
import { collectGarbage, fmt, median, table, timeMs, verdict, type BenchContext, type BenchSection } from "./common";

export const RATIO_TARGET = 1.0;
export const SCALING_TARGET = 2.2;

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
  return {
    name: "rebuild",
    description: `JSON.parse vs rebuild of generated ETF runs (${sizes.map(fmt.int).join(", ")} turns, seed ${seed}), median of repeats`,
    run(ctx) {
      const rows = sizes.map((turns) => measureRebuild(ctx, turns, seed));
      reportRebuild(ctx, rows);
    },
  };
}
