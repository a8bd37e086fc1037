import { createHash } from "node:crypto";
import { REMINDER_KEYS, type TCopy, type TPolicy, type TReplayResult } from "@/lib/contracts";
import { followUpGroups, type RunFollowUp, type SavedCopy } from "@/lib/replay/follow-up-groups";
import { emptyKeyStats, mergeKeyStats } from "@/lib/replay/key-stats";
import type { Database } from "@/lib/server/db";
import { copyColumn } from "@/lib/server/db/json-columns";
import { rebuildRun } from "@/lib/server/jobs/rebuild-run";
import { decisionsJsonOf } from "@/lib/server/runs/decision-chunks";
import { queryEventRows } from "@/lib/server/runs/run-events";
import { readWholeDecisions } from "@/lib/server/runs/stored-decisions";
import type { TaskThreads } from "@/lib/server/jobs/threads";

export interface ReplayProgress {
  doneRuns: number;
  doneTurns: number;
}

/** A run as the replay reads it: its keys and length; its events and own decisions are read one run at a time. */
export interface ReplayRun {
  id: string;
  runId: string;
  maxTurn: number | null;
  eventCount: number;
}

/**
 * Rebuilds each run with the what-if copy/policy and compares it with its own decisions: per-key
 * stats for both, the turns that changed, and the §8 follow-up association of the recorded runs
 * per copy they were rendered with (named after the project's saved copy versions). Runs are read
 * and replayed one at a time, on a job thread, so memory holds one run, never all of them.
 * `onRun` reports progress after every run and may answer false to stop (cancellation).
 */
export async function replayRuns(
  db: Database,
  threads: TaskThreads,
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

  for (const run of runs) {
    // The run's own decisions, rebuilt first if its stored rebuild is behind (this is a job, off the
    // request path); a run that cannot be rebuilt is left out.
    const own = await db.prisma.runDecisionsCache.findUnique({
      where: { projectId_runPk: { projectId, runPk: run.id } },
      select: { eventCount: true },
    });
    if (own?.eventCount !== run.eventCount) await rebuildRun(db, threads, projectId, run.id);
    // The whole stored decisions, their chunks' texts joined (a job reads the whole run).
    const stored = await readWholeDecisions(db, { projectId, id: run.id });
    if (stored?.head.findings) {
      const ownJson = decisionsJsonOf(run.runId, stored.chunkTexts, stored.head.findings);
      const rows = await queryEventRows(db, { projectId, id: run.id });
      const one = await threads.run("replayRun", { runId: run.runId, rows, ownJson, overrides });
      mergeKeyStats(baseline, one.baseline);
      mergeKeyStats(whatIf, one.whatIf);
      if (one.changed) changedRuns.push(one.changed);
      follow.push(one.follow);
    }
    progress.doneRuns++;
    progress.doneTurns += run.maxTurn === null ? 0 : run.maxTurn + 1;
    if (!(await onRun(progress))) return null;
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
