import "server-only";
import type { TReplayTurn } from "@/lib/contracts";
import { whatIfFindings } from "@/lib/replay/what-if-findings";
import type { Database } from "@/lib/server/db";
import type { Threads } from "@/lib/server/jobs/threads";
import { DomainError } from "@/lib/server/errors";
import type { ReplayTasks } from "./replay-task";
import { replayedRun } from "./replayed-run";

/**
 * `GET /api/v1/replay/:id/runs/:runId/turns/:turn`: one turn of a run with its own copy and
 * policy (the stored decisions) next to the job's what-if, what differs, and the run's nearest
 * changed turns either side. The run's what-if is rebuilt once per job and stored rebuild
 * (replayed-run.ts), on `threads`: the process's job threads (the what-if rebuild is CPU work, not
 * this request's event loop's).
 */
export async function getReplayTurn(
  db: Database,
  threads: Threads<ReplayTasks>,
  projectId: string,
  jobId: string,
  runId: string,
  turn: number,
): Promise<TReplayTurn> {
  const { job, run, replay } = await replayedRun(db, threads, projectId, jobId, runId);

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
