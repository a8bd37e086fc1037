/**
 * What-if replay throughput, in turns per second over the demo runs: the core alone (each run
 * rebuilt with a copy and a policy override and compared with its own decisions), then the whole
 * job as the API runs it on an embedded database (load events and cached decisions, rebuild,
 * compare, follow-up, progress writes).
 */
import { ZEvent, type TCopy, type TPolicy } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { demoRuns } from "@/lib/demo/demo-set";
import { changedTurns } from "@/lib/replay/changed-turns";
import { keyStatsOf } from "@/lib/replay/key-stats";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey, authenticate } from "@/lib/server/auth/keys";
import { openDatabase } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { inlineReplays } from "@/lib/server/testing/jobs";
import { startReplay } from "@/lib/server/replay/replay-jobs";
import { createCopyVersion } from "@/lib/server/versions/versions";
import { loadDemo } from "@/scripts/lib/load-demo";
import { collectGarbage, fmt, median, table, type BenchContext, type BenchSection } from "./common";

const SHORT_COPY: TCopy = { context: { "*": "Context {percent}% of {capacityBytes} B" } };

export function replaySection(): BenchSection {
  return {
    name: "replay",
    description: "what-if replay of the demo runs (copy + policy override, compared with their own decisions)",
    run,
  };
}

async function run(ctx: BenchContext): Promise<void> {
  coreReplay(ctx);
  await jobReplay(ctx);
}

function coreReplay(ctx: BenchContext): void {
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

/** The replay job end to end on a fresh embedded database holding the demo runs. */
async function jobReplay(ctx: BenchContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "cuescope-bench-replay-"));
  // url "" = the embedded database, whatever DATABASE_URL says (this bench never writes to a server).
  const db = await openDatabase({ dataDir: join(dir, "data"), url: "" });
  try {
    ctx.progress("replay job: loading the demo runs into an embedded database ...");
    const { secret } = await createKey(db, "bench-replay");
    const caller = await authenticate(db, `Bearer ${secret}`);
    await loadDemo((batch) => ingestBatch(db, caller.projectId, batch));
    await settleRebuilds(db);
    const times: number[] = [];
    let turns = 0;
    for (let r = 0; r <= ctx.repeats; r++) {
      ctx.progress(`replay job: ${r === 0 ? "warm-up (builds the decisions cache)" : `repetition ${r}/${ctx.repeats}`}`);
      // A new version each time, so no finished job of the same inputs answers at once.
      const version = await createCopyVersion(db, caller, {
        name: `bench ${r}`,
        copy: { ...SHORT_COPY, review: { "*": `Checkpoint {checkpoint} (${r})` } },
      });
      const started = process.hrtime.bigint();
      const { job, done } = await startReplay(db, caller, { copyVersionId: version.id, filters: {}, maxRuns: 500 }, inlineReplays(db));
      await done;
      if (r > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
      turns = job.progress.totalTurns;
    }
    const ms = median(times);
    ctx.print(
      table(
        ["replay job (embedded database)", "turns", "median ms", "turns/s"],
        [["demo runs, copy version", fmt.int(turns), fmt.ms(ms), fmt.int((turns / ms) * 1000)]],
      ),
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
