import type { TReviewerCandidateRow, TReviewerListRow } from "@/lib/contracts";

/** Columns of the Reviewer audit export, in order. */
export const REVIEWER_CSV_COLUMNS = [
  "run_id",
  "task",
  "agent",
  "model",
  "turn",
  "checkpoint",
  "candidate_id",
  "source",
  "recorded_admission",
  "recorded_reasons",
  "rule_verdict",
  "rule_reasons",
  "requests_left",
  "min_requests_left",
  "review_in_progress",
  "rebuilt_admission",
  "dispatch_ids",
  "completed_turns",
  "verdicts",
  "cancelled_reason",
  "suggestion_stage",
  "suggestion_status",
  "findings",
  "review_key",
  "review_verdict",
  "review_comment",
  "reviewed_by",
  "reviewed_at",
  "assignee",
] as const;

export type CsvCell = string | number | boolean | null;
type Cell = CsvCell;

/** One listed candidate as CSV cells, matching REVIEWER_CSV_COLUMNS: the audit's columns, then its review's. */
export function reviewerCsvCells(row: TReviewerListRow): Cell[] {
  const review = row.review;
  return [
    ...auditCells(row),
    row.reviewKey,
    review?.verdict ?? null,
    review?.comment ?? null,
    review?.reviewer?.name ?? null,
    review?.reviewedAt ?? null,
    review?.assignee?.name ?? null,
  ];
}

/** The audit's own columns of a row. */
export function auditCells(row: TReviewerCandidateRow): Cell[] {
  const verdict = (granted: boolean | undefined) => (granted === undefined ? null : granted ? "granted" : "denied");
  return [
    row.runId,
    row.task,
    row.agent,
    row.model,
    row.turn,
    row.checkpoint,
    row.candidateId,
    row.source,
    verdict(row.recorded?.granted),
    row.recorded?.reasons.join(" ") ?? null,
    verdict(row.rule?.granted),
    row.rule?.reasons.join(" ") ?? null,
    row.rule?.requestsLeft ?? null,
    row.rule?.minRequestsLeft ?? null,
    row.rule?.reviewInProgress ?? null,
    verdict(row.rebuilt?.granted),
    row.dispatches.map((d) => d.dispatchId).join(" ") || null,
    row.dispatches
      .map((d) => d.completedTurn ?? "")
      .join(" ")
      .trim() || null,
    row.dispatches
      .map((d) => d.verdict ?? "")
      .filter(Boolean)
      .join(" | ") || null,
    row.cancelled?.reason ?? null,
    row.suggestion?.stage ?? null,
    row.suggestion?.status ?? null,
    row.findings.join(" ") || null,
  ];
}

/**
 * One CSV line (RFC 4180 quoting, CRLF). Text that a spreadsheet would run as a formula (starting
 * with = + - @) is prefixed with an apostrophe; numbers are written as they are.
 */
export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function csvCell(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell !== "string") return String(cell);
  const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
