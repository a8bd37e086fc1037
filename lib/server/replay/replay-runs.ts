import { performance } from "node:perf_hooks";
import { createHash } from "node:crypto";
import { REMINDER_KEYS, type TCopy, type TPolicy, type TReplayResult } from "@/lib/contracts";
import { followUpGroups, type RunFollowUp, type SavedCopy } from "@/lib/replay/follow-up-groups";
import { emptyKeyStats, mergeKeyStats } from "@/lib/replay/key-stats";
import type { Database } from "@/lib/server/db";
import { copyColumn } from "@/lib/server/db/json-columns";
import { readEventCopyPages } from "@/lib/server/runs/run-events";
import { transferableBuffers, type Threads } from "@/lib/server/jobs/threads";
import type { ReplayTasks } from "./replay-task";

/**
 * How often a replay stores its progress (and looks whether it was cancelled), in ms: a statement
 * per run was a statement more per 700 turns, waiting its turn with the reads.
 */
export const PROGRESS_EVERY_MS = 250;

export interface ReplayProgress {
  doneRuns: number;
  doneTurns: number;
}

/** A run as the replay reads it: its keys and length; its events are read a run at a time, as it goes. */
export interface ReplayRun {
  id: string;
  runId: string;
  maxTurn: number | null;
  eventCount: number;
}

/**
 * Rebuilds each run with the what-if copy/policy and with its own, and compares the two: per-key
 * stats for both, the turns that changed, and the §8 follow-up association of the recorded runs
 * per copy they were rendered with (named after the project's saved copy versions). Runs are
 * replayed one at a time on a job thread, the next one read meanwhile.
 * `onRun` reports progress every PROGRESS_EVERY_MS and after the last run, and may answer false to
 * stop (cancellation).
 */
export async function replayRuns(
  db: Database,
  threads: Threads<ReplayTasks>,
  projectId: string,
  runs: readonly ReplayRun[],
  overrides: { copy?: TCopy; policy?: TPolicy },
  onRun: (progress: ReplayProgress) => Promise<boolean>,
): Promise<TReplayResult | null> {
  const baseline = REMINDER_KEYS.map(emptyKeyStats);
  const whatIf = REMINDER_KEYS.map(emptyKeyStats);
  const follow: RunFollowUp[] = [];
  const changedRuns: TReplayResult["changedRuns"] = [];
  const progress: ReplayProgress = { doneRuns: 0, doneTurns: 0 };

  // The next run's events are read (on this event loop, between requests, a page at a time as the
  // database's bytes: binary COPY, decoded on the job thread) while the job thread replays this
  // one: memory holds two runs, never all of them.
  const readPages = (run: ReplayRun) => readEventCopyPages(db, { projectId, id: run.id });
  let next = runs.length > 0 ? readPages(runs[0]) : null;
  let reported = performance.now();
  try {
    for (const [i, run] of runs.entries()) {
      const eventPages = await next!;
      next = i + 1 < runs.length ? readPages(runs[i + 1]) : null;
      next?.catch(() => {}); // its failure is thrown when it is awaited, next round
      // The pages' buffers are handed over, not copied (this side never reads them).
      const buffers = transferableBuffers(eventPages, { shared: true });
      const one = await threads.run("replayRun", { runId: run.runId, eventPages, overrides }, buffers);
      if (one) {
        mergeKeyStats(baseline, one.baseline);
        mergeKeyStats(whatIf, one.whatIf);
        if (one.changed) changedRuns.push(one.changed);
        follow.push(one.follow);
      }
      progress.doneRuns++;
      progress.doneTurns += run.maxTurn === null ? 0 : run.maxTurn + 1;
      // Progress is stored (and cancellation looked at) every PROGRESS_EVERY_MS, and after the last run.
      if (i === runs.length - 1 || performance.now() - reported >= PROGRESS_EVERY_MS) {
        if (!(await onRun(progress))) return null;
        reported = performance.now();
      }
    }
  } finally {
    await next?.catch(() => {}); // stopped or failed: nothing is left reading once the job is over
  }

  return {
    runs: runs.length,
    turns: progress.doneTurns,
    keys: REMINDER_KEYS.map((key, i) => ({ key, baseline: baseline[i], whatIf: whatIf[i] })),
    changedRuns,
    followUp: followUpGroups(follow, await savedCopies(db, projectId), copyFingerprint),
  };
}

/** A resolved copy's short id: the first 10 hex digits of the sha256 of its canonical JSON. */
export function copyFingerprint(resolvedJson: string): string {
  return createHash("sha256").update(resolvedJson).digest("hex").slice(0, 10);
}

async function savedCopies(db: Database, projectId: string): Promise<SavedCopy[]> {
  const rows = await db.prisma.copyVersion.findMany({
    where: { projectId },
    select: { id: true, name: true, createdAt: true, copy: true },
  });
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), copy: copyColumn(row) }));
}
