import type { TReviewerListRow } from "@/lib/contracts";
import type { ReviewerRow } from "@/lib/derived/reviewer/rows";

/**
 * A Reviewer row as the candidates list gives it when nobody reviewed it, written out from the
 * contract (docs/reviews.md) rather than from the server's code: the run's columns, the row, its
 * review key (its candidate's id, or its turn without one) and no review.
 */
export function unreviewedRow(
  run: { runId: string; task: string | null; agent: string | null; model: string | null },
  row: ReviewerRow,
): TReviewerListRow {
  return {
    runId: run.runId,
    task: run.task,
    agent: run.agent,
    model: run.model,
    ...row,
    reviewKey: row.candidateId === null ? `t:${row.turn}` : `c:${row.candidateId}`,
    review: null,
  };
}
