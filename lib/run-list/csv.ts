import type { TRunListItem } from "@/lib/contracts";
import type { CsvCell } from "@/lib/reviewer/csv";

/**
 * Columns of the runs list's CSV export, in order, each with its unit in brackets: a count is never
 * a bare number, and no two units are summed into one column. Instants are UTC (ISO 8601).
 */
export const RUNS_CSV_COLUMNS = [
  "run_id",
  "task",
  "agent",
  "model",
  "experiment",
  "experiment_arm",
  "status",
  "started_at (UTC)",
  "ended_at (UTC)",
  "turns (turns)",
  "events (events)",
  "requests_used (requests)",
  "requests_usable (requests)",
  "requests_reserve (requests)",
  "requests_limit (requests)",
  "time_elapsed (min)",
  "time_limit (min)",
  "delivered (reminders)",
  "dropped (reminders)",
  "failed (reminders)",
  "uncertain (reminders)",
  "pending (reminders)",
  "drop_rate (% of reminders)",
  "findings (findings)",
  "findings_by_code (code=findings)",
  "reviewer_violations (Reviewer rows)",
  "rebuild_error",
  "stale_events (events)",
] as const;

/** Minutes from milliseconds, to the millisecond (3 decimals of a second are kept as 5 of a minute). */
function minutes(ms: number): number {
  return Math.round((ms / 60_000) * 100_000) / 100_000;
}

/** One run as CSV cells, matching RUNS_CSV_COLUMNS. */
export function runCsvCells(run: TRunListItem): CsvCell[] {
  return [
    run.runId,
    run.task,
    run.agent,
    run.model,
    run.experimentId,
    run.experimentArm,
    run.status,
    run.startedAt,
    run.endedAt,
    run.turns,
    run.eventCount,
    run.requests?.used ?? null,
    run.requests?.usable ?? null,
    run.requests?.reserve ?? null,
    run.requests?.limit ?? null,
    run.time ? minutes(run.time.elapsedMs) : null,
    run.time ? minutes(run.time.limitMs) : null,
    run.reminders.delivered,
    run.reminders.dropped,
    run.reminders.failed,
    run.reminders.uncertain,
    run.reminders.pending,
    run.dropRate === null ? null : Math.round(run.dropRate * 100 * 1000) / 1000,
    run.findings,
    Object.entries(run.findingsByCode)
      .map(([code, n]) => `${code}=${n}`)
      .join(" ") || null,
    run.reviewerViolations,
    run.rebuildError,
    run.staleEvents,
  ];
}
