import "server-only";
import type { TReplayCompareQuery, TReplayWhatIfRun, TRunComparison } from "@/lib/contracts";
import { compareTurns } from "@/lib/derived/compare/compare-turns";
import type { Database } from "@/lib/server/db";
import type { Threads } from "@/lib/server/jobs/threads";
import type { ReplayTasks } from "./replay-task";
import { replayedRun } from "./replayed-run";

/**
 * `GET /api/v1/replay/:id/runs/:runId/compare` (docs/compare.md, "A run against its what-if
 * replay"): the recorded run (A, its stored decisions) against its what-if under the job's
 * versions (B), answered as the comparison of two runs is, so the page is the same. Both sides are
 * whole in memory (replayed-run.ts: one rebuild per job and stored rebuild, on a job thread), so
 * no digests are read: the turns are compared with `turnDifference`, the definition the stored
 * digests' comparison uses. Always `ready`: nothing is waited for.
 */
export async function compareWithWhatIf(
  db: Database,
  threads: Threads<ReplayTasks>,
  projectId: string,
  jobId: string,
  runId: string,
  query: TReplayCompareQuery,
): Promise<TRunComparison> {
  const { run, replay } = await replayedRun(db, threads, projectId, jobId, runId);
  return { a: run.runId, b: run.runId, ready: true, ...compareTurns(replay.baseline.turns, replay.whatIf.turns, query) };
}

/**
 * `GET /api/v1/replay/:id/runs/:runId/timeline`: what the comparison draws and counts of the
 * what-if (its whole-run timeline with the job's policy's lines, its reminders and findings).
 */
export async function getWhatIfRun(
  db: Database,
  threads: Threads<ReplayTasks>,
  projectId: string,
  jobId: string,
  runId: string,
): Promise<TReplayWhatIfRun> {
  const { job, run, replay } = await replayedRun(db, threads, projectId, jobId, runId);
  const { rebuiltTurns, reminders, findings, findingsByCode } = replay.whatIfSummary;
  return {
    jobId: job.id,
    runId: run.runId,
    copyVersionId: job.copyVersionId,
    policyVersionId: job.policyVersionId,
    rebuiltTurns,
    reminders,
    findings,
    findingsByCode,
    timeline: replay.whatIfTimeline,
  };
}
