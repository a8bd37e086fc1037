import "server-only";
import type { TRunDecisions, TRunTimeline } from "@/lib/contracts";
import type { DecisionsSummary } from "@/lib/core";
import { changedTurns, type ChangedTurn } from "@/lib/replay/changed-turns";
import type { Database } from "@/lib/server/db";
import type { Threads } from "@/lib/server/jobs/threads";
import { DomainError } from "@/lib/server/errors";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { findRun, type RunRow } from "@/lib/server/runs/find-run";
import { getParsedRunDecisions } from "@/lib/server/runs/run-decisions";
import { queryEventRows } from "@/lib/server/runs/run-events";
import { getCopyVersion, getPolicyVersion } from "@/lib/server/versions/versions";
import type { ReplayTasks } from "./replay-task";

/** One run of a replay job, its stored decisions (the baseline) beside its what-if under the job's versions. */
export interface ReplayedRun {
  baseline: TRunDecisions;
  whatIf: TRunDecisions;
  changed: ChangedTurn[];
  /** The what-if's whole-run timeline and counts, as the run comparison draws a run (replay-task.ts, whatIfRunTask). */
  whatIfTimeline: TRunTimeline;
  whatIfSummary: DecisionsSummary;
  /** Estimated: the run's own decisions twice (the what-if is about as large), the changed turns and the timeline. */
  bytes: number;
}

/** The job's fields its what-ifs are read by. */
export interface ReplayJobRef {
  id: string;
  copyVersionId: string | null;
  policyVersionId: string | null;
}

/**
 * One run rebuilt with one job's versions, per job and stored rebuild: clicking through the turns of
 * a run, or stepping through its comparison, rebuilds it once. Read-only: callers must not change
 * what they get.
 */
const replayed = runCache<ReplayedRun>({ sizeOf: (run) => run.bytes });

/** Rebuilds under way, by cache key: requests that arrive together (the comparison's page asks for two answers at once) share one. */
const building = new Map<string, Promise<ReplayedRun>>();

/**
 * A run of a replay job with its what-if (docs/architecture.md, habit 13: the one request path that
 * rebuilds, on a job thread): the replay's turn view and the run's comparison with its what-if both
 * read it. The job and the run are the caller's project's, and the run must be one the job replayed:
 * otherwise not found, naming the replay (`id`) or the run (`runId`). Any job status will do: the
 * versions it names never change.
 *
 * The baseline is the run's decisions as last rebuilt, the what-if those of the same events (those
 * that rebuild included, up to its max seq), kept per job and stored rebuild, so a run that grows
 * meanwhile is compared like with like. The stored rebuild's version comes with the decisions (one
 * row read), never from a separate read: a rebuild landing between two reads would otherwise pair
 * new decisions with the older events under the older key.
 */
export async function replayedRun(
  db: Database,
  threads: Threads<ReplayTasks>,
  projectId: string,
  jobId: string,
  runId: string,
): Promise<{ job: ReplayJobRef; run: RunRow; replay: ReplayedRun }> {
  const job = await db.prisma.replayJob.findFirst({
    where: { id: jobId, projectId },
    select: { id: true, copyVersionId: true, policyVersionId: true, runPks: true },
  });
  if (!job) throw new DomainError("not_found", `no replay ${JSON.stringify(jobId)} in this project`, "id");
  const run = await findRun(db, projectId, runId);
  if (!job.runPks.includes(run.id))
    throw new DomainError(
      "not_found",
      `run ${JSON.stringify(runId)} is not one of the runs replay ${JSON.stringify(job.id)} replayed`,
      "runId",
    );

  const own = await getParsedRunDecisions(db, run);
  if (!own.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${own.error}`);
  const key = `${job.id}:${own.version}`;
  const hit = replayed.get(key);
  if (hit) return { job, run, replay: hit };
  let pending = building.get(key);
  if (!pending) {
    pending = (async () => {
      const [copy, policy, rows] = await Promise.all([
        job.copyVersionId ? getCopyVersion(db, projectId, job.copyVersionId).then((v) => v.copy) : undefined,
        job.policyVersionId ? getPolicyVersion(db, projectId, job.policyVersionId).then((v) => v.policy) : undefined,
        queryEventRows(db, run, ` AND "seq" <= $3::bigint`, [own.maxSeq]),
      ]);
      const whatIf = await threads.run("whatIfRun", { runId: run.runId, rows, overrides: { copy, policy } });
      const changed = changedTurns(own.decisions, whatIf.decisions);
      const replay: ReplayedRun = {
        baseline: own.decisions,
        whatIf: whatIf.decisions,
        changed,
        whatIfTimeline: whatIf.timeline,
        whatIfSummary: whatIf.summary,
        bytes: 2 * own.bytes + 200 * changed.length + jsonTextBytes(whatIf.timelineChars),
      };
      replayed.set(key, replay);
      return replay;
    })().finally(() => building.delete(key));
    building.set(key, pending);
  }
  return { job, run, replay: await pending };
}
