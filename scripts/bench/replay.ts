/**
 * What-if replay throughput: the demo runs rebuilt with a copy and a policy override and compared
 * with their own decisions (per-key stats and changed turns), in turns per second.
 */
import { ZEvent, type TCopy, type TPolicy } from "../../lib/contracts";
import { rebuild } from "../../lib/core";
import { demoRuns } from "../../lib/demo/demo-set";
import { changedTurns } from "../../lib/replay/changed-turns";
import { keyStatsOf } from "../../lib/replay/key-stats";
import { collectGarbage, fmt, median, table, type BenchContext, type BenchSection } from "./common";

const SHORT_COPY: TCopy = { context: { "*": "Context {percent}% of {capacityBytes} B" } };

export function replaySection(): BenchSection {
  return { name: "replay", description: "what-if replay of the demo runs (copy + policy override, compared with their own decisions)", run };
}

function run(ctx: BenchContext): void {
  ctx.progress("replay: generating the demo runs ...");
  const runs = demoRuns("2026-11-30T12:00:00.000Z").map((r) => r.events.map((e) => ZEvent.parse(e)));
  const turns = runs.reduce((sum, events) => sum + new Set(events.flatMap((e) => (e.turn === undefined ? [] : [e.turn]))).size, 0);
  const tighter = (events: (typeof runs)[number]): TPolicy => {
    const started = events.find((e) => e.type === "run.started");
    const policy = started?.type === "run.started" ? started.body.policy : {};
    return { ...policy, context: policy.context && { ...policy.context, capacityBytes: Math.round(policy.context.capacityBytes * 0.9) } };
  };
  const replayAll = () => {
    let changed = 0;
    const before = runs.map((events) => rebuild(events));
    const after = runs.map((events) => rebuild(events, { copy: SHORT_COPY, policy: tighter(events) }));
    keyStatsOf(before);
    keyStatsOf(after);
    for (let i = 0; i < runs.length; i++) changed += changedTurns(before[i], after[i]).length;
    return changed;
  };
  replayAll(); // warm-up
  collectGarbage();
  const times: number[] = [];
  let changed = 0;
  for (let r = 0; r < ctx.repeats; r++) {
    ctx.progress(`replay: repetition ${r + 1}/${ctx.repeats}`);
    const started = process.hrtime.bigint();
    changed = replayAll();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const ms = median(times);
  ctx.print(
    table(
      ["runs", "turns", "changed turns", "median ms", "turns/s"],
      [[fmt.int(runs.length), fmt.int(turns), fmt.int(changed), fmt.ms(ms), fmt.int((turns / ms) * 1000)]],
    ),
  );
  ctx.print("(each turn is rebuilt twice — its own copy and policy, then the what-if — and compared)");
}
