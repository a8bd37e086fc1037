import { performance } from "node:perf_hooks";
import { createHash } from "node:crypto";
import { REMINDER_KEYS, type TCopy, type TPolicy, type TReplayResult } from "@/lib/contracts";
import { followUpGroups, type RunFollowUp, type SavedCopy } from "@/lib/replay/follow-up-groups";
import { emptyKeyStats, mergeKeyStats } from "@/lib/replay/key-stats";
import type { Database } from "@/lib/server/db";
import { copyColumn } from "@/lib/server/db/json-columns";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { readEventCopyPages } from "@/lib/server/runs/run-events";
import { readWholeDecisionBytes } from "@/lib/server/runs/stored-decisions";
import { transferableBuffers, type Threads } from "@/lib/server/jobs/threads";
import type { RebuildTasks } from "@/lib/server/rebuild/rebuild-task";
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

/** A run as the replay reads it: its keys and length; its events and own decisions are read a run at a time, as it goes. */
export interface ReplayRun {
  id: string;
  runId: string;
  maxTurn: number | null;
  eventCount: number;
}

/**
 * Rebuilds each run with the what-if copy/policy and compares it with its own decisions: per-key
 * stats for both, the turns that changed, and the §8 follow-up association of the recorded runs
 * per copy they were rendered with (named after the project's saved copy versions). Runs are
 * replayed one at a time on a job thread, the next one read meanwhile.
 * `onRun` reports progress every PROGRESS_EVERY_MS and after the last run, and may answer false to
 * stop (cancellation).
 */
export async function replayRuns(
  db: Database,
  threads: Threads<ReplayTasks & RebuildTasks>,
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

  // The next run is read (on this event loop, between requests) while the job thread replays this
  // one: memory holds two runs, never all of them.
  let next = runs.length > 0 ? readRunInput(db, threads, projectId, runs[0]) : null;
  let reported = performance.now();
  try {
    for (const [i, run] of runs.entries()) {
      const input = await next!;
      next = i + 1 < runs.length ? readRunInput(db, threads, projectId, runs[i + 1]) : null;
      next?.catch(() => {}); // its failure is thrown when it is awaited, next round
      if (input) {
        // The pages' and chunks' buffers are handed over, not copied (this side never reads them;
        // the chunks' page buffers, views of which they may be, are the read's own).
        const buffers = transferableBuffers([...input.eventPages, ...input.ownChunks], { shared: true });
        const one = await threads.run("replayRun", { runId: run.runId, ...input, overrides }, buffers);
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

/**
 * What the replay needs of one run: its own decisions (rebuilt first if its stored rebuild is
 * behind — this is a job, off the request path) and its event rows, read a page at a time; null
 * when the run has no decisions (it cannot be rebuilt) and is left out. Both are read as the
 * database's bytes (binary COPY), not decoded on this event loop: the job thread reads them.
 */
async function readRunInput(
  db: Database,
  threads: Threads<ReplayTasks & RebuildTasks>,
  projectId: string,
  run: ReplayRun,
): Promise<{ ownChunks: Uint8Array[]; ownFindings: string; eventPages: Uint8Array[] } | null> {
  // The whole stored decisions (a job reads the whole run), joined on the job thread. The row read
  // with them says whether they are of the run's events now: if not (or there is none) the run is
  // rebuilt, and they are read again.
  let stored = await readWholeDecisionBytes(db, { projectId, id: run.id });
  if (stored?.head.eventCount !== run.eventCount) {
    await rebuildRun(db, threads, projectId, run.id);
    stored = await readWholeDecisionBytes(db, { projectId, id: run.id });
  }
  if (!stored?.head.findings) return null;
  return {
    ownChunks: stored.chunkTexts,
    ownFindings: stored.head.findings,
    eventPages: await readEventCopyPages(db, { projectId, id: run.id }),
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
