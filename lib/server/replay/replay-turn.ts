import "server-only";
import type { TReplayTurn, TRunDecisions } from "@/lib/contracts";
import { changedTurns, type ChangedTurn } from "@/lib/replay/changed-turns";
import { whatIfFindings } from "@/lib/replay/what-if-findings";
import type { Database } from "@/lib/server/db";
import type { Threads } from "@/lib/server/jobs/threads";
import { DomainError } from "@/lib/server/errors";
import { runCache } from "@/lib/server/lru";
import { findRun } from "@/lib/server/runs/find-run";
import { getParsedRunDecisions } from "@/lib/server/runs/run-decisions";
import { queryEventRows } from "@/lib/server/runs/run-events";
import { getCopyVersion, getPolicyVersion } from "@/lib/server/versions/versions";
import type { ReplayTasks } from "./replay-task";

interface ReplayedRun {
  baseline: TRunDecisions;
  whatIf: TRunDecisions;
  changed: ChangedTurn[];
  /** Estimated: the run's own decisions twice (the what-if is about as large) plus the changed turns. */
  bytes: number;
}

/**
 * One run rebuilt with one job's versions, per run version (its event count): clicking through
 * the turns of a run rebuilds it once. Read-only: callers must not change what they get.
 */
const replayed = runCache<ReplayedRun>({ sizeOf: (run) => run.bytes });

/**
 * `GET /api/v1/replay/:id/runs/:runId/turns/:turn`: one turn of a run with its own copy and
 * policy (the stored decisions) next to the job's what-if, what differs, and the run's nearest
 * changed turns either side. Any job status will do: the versions it names never change.
 */
/** `threads`: the process's job threads (the what-if rebuild is CPU work, not this request's event loop's). */
export async function getReplayTurn(
  db: Database,
  threads: Threads<ReplayTasks>,
  projectId: string,
  jobId: string,
  runId: string,
  turn: number,
): Promise<TReplayTurn> {
  const job = await db.prisma.replayJob.findFirst({ where: { id: jobId, projectId } });
  if (!job) throw new DomainError("not_found", `no replay ${JSON.stringify(jobId)} in this project`, "id");
  const run = await findRun(db, projectId, runId);

  // The run's own decisions as last rebuilt, and the what-if of the same events (those that rebuild
  // included, up to its max seq): kept per job and stored rebuild, so a run that grows meanwhile is
  // compared like with like and clicked through at the cost of one rebuild. The stored rebuild's
  // version comes with the decisions (one row read), never from a separate read: a rebuild landing
  // between two reads would otherwise pair new decisions with the older events under the older key.
  const own = await getParsedRunDecisions(db, run);
  if (!own.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${own.error}`);
  const key = `${job.id}:${own.version}`;
  let replay = replayed.get(key);
  if (!replay) {
    const [copy, policy, rows] = await Promise.all([
      job.copyVersionId ? getCopyVersion(db, projectId, job.copyVersionId).then((v) => v.copy) : undefined,
      job.policyVersionId ? getPolicyVersion(db, projectId, job.policyVersionId).then((v) => v.policy) : undefined,
      queryEventRows(db, run, ` AND "seq" <= $3::bigint`, [own.maxSeq]),
    ]);
    const whatIf = await threads.run("whatIfRun", { runId: run.runId, rows, overrides: { copy, policy } });
    const changed = changedTurns(own.decisions, whatIf);
    replay = { baseline: own.decisions, whatIf, changed, bytes: 2 * own.bytes + 200 * changed.length };
    replayed.set(key, replay);
  }

  const { baseline, whatIf, changed } = replay;
  const baselineTurn = baseline.turns.find((t) => t.turn === turn) ?? null;
  const whatIfTurn = whatIf.turns.find((t) => t.turn === turn) ?? null;
  const baselineFindings = baseline.findings.filter((f) => f.turn === turn);
  // No agent ran with the what-if's copy and policy: its comparisons with the agent's record are left out.
  const whatIfTurnFindings = whatIfFindings(whatIf.findings.filter((f) => f.turn === turn));
  if (!baselineTurn && !whatIfTurn && baselineFindings.length === 0 && whatIfTurnFindings.length === 0) {
    throw new DomainError(
      "not_found",
      `no turn ${turn} in run ${JSON.stringify(runId)}, with its own or the replay's copy and policy`,
      "turn",
    );
  }

  let previousChanged: number | null = null;
  let nextChanged: number | null = null;
  let changes: string[] = [];
  for (const c of changed) {
    if (c.turn < turn) previousChanged = c.turn;
    else if (c.turn === turn) changes = c.changes;
    else {
      nextChanged = c.turn;
      break;
    }
  }

  return {
    jobId: job.id,
    runId: run.runId,
    turn,
    copyVersionId: job.copyVersionId,
    policyVersionId: job.policyVersionId,
    baseline: baselineTurn,
    whatIf: whatIfTurn,
    changes,
    baselineFindings,
    whatIfFindings: whatIfTurnFindings,
    previousChanged,
    nextChanged,
  };
}
