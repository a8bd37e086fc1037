import type { TEvent, TRunDecisions } from "@/lib/contracts";
import { rebuild, RunInputError, summarizeDecisions } from "@/lib/core";
import { reviewerAudit, type ReviewerAudit } from "@/lib/reviewer/audit";
import { eventColumns, StoredDataError, type EventRow, type TRunSummaryColumn } from "@/lib/server/db/json-columns";

/** An events row as the rebuild job reads it: the body still JSON text (parsed in the thread). */
export type StoredEventRow = Omit<EventRow, "body"> & { body: string };

export interface RebuildTaskInput {
  runId: string;
  rows: readonly StoredEventRow[];
}

/** What a rebuild stores: the decisions as the JSON text that is served, with their summary; or why it failed. */
export type RebuildTaskOutput =
  | { ok: true; json: string; summary: TRunSummaryColumn; audit: ReviewerAudit; eventCount: number }
  | { ok: false; error: string; eventCount: number };

/**
 * The CPU part of a run's rebuild, pure and self-contained so it can run in a worker thread
 * (lib/server/jobs/threads.ts): stored rows → events (each read back through the event contract) →
 * the core's decisions (contract §6) → their JSON text, their summary and the run's Reviewer audit
 * (lib/reviewer/audit.ts). A run whose events cannot be
 * rebuilt (no run.started, a second one) or whose stored rows no longer parse answers why.
 */
export function rebuildTask({ runId, rows }: RebuildTaskInput): RebuildTaskOutput {
  let events: TEvent[];
  let decisions: TRunDecisions;
  try {
    events = rows.map((row) => eventColumns({ ...row, body: JSON.parse(row.body) }, runId));
    decisions = rebuild(events);
  } catch (error) {
    if (error instanceof RunInputError || error instanceof StoredDataError)
      return { ok: false, error: error.message, eventCount: rows.length };
    throw error;
  }
  return {
    ok: true,
    json: JSON.stringify(decisions),
    summary: summaryOf(decisions, events),
    audit: reviewerAudit(events, decisions),
    eventCount: rows.length,
  };
}

/** The decisions' counts plus the policy and copy the run started with (run_decisions.summary). */
export function summaryOf(decisions: TRunDecisions, events: readonly TEvent[]): TRunSummaryColumn {
  const started = events.find((e) => e.type === "run.started");
  return {
    ...summarizeDecisions(decisions),
    policy: started?.type === "run.started" ? started.body.policy : {},
    copy: started?.type === "run.started" ? (started.body.copy ?? null) : null,
  };
}
