import { ZEvent, type TEventOf, type TTurnEvent } from "@/lib/contracts";

export type TSubmissionEvent = TEventOf<"request.submitted">;
export type TReviewerEvent = TEventOf<
  "reviewer.candidate" | "reviewer.admission" | "reviewer.dispatched" | "reviewer.completed" | "reviewer.cancelled"
>;

/**
 * One turn's events, read and sorted into what the inspector shows. Each kind keeps its own list:
 * a reminder, a Reviewer event and a user notification are never mixed (R12).
 */
export interface TurnRecord {
  /** Every readable event of the turn, in run order. */
  events: TTurnEvent[];
  /** Events the contract could not read (should not happen: they were validated when stored). */
  unreadable: number;
  /** Every `request.submitted`, in run order. */
  submissions: TSubmissionEvent[];
  /** The turn's submission: the LAST `request.submitted` in run order (contract §2), or null (pending). */
  submission: TSubmissionEvent | null;
  marked: TEventOf<"reminders.marked">[];
  finals: TEventOf<"request.final">[];
  compactions: TEventOf<"context.compaction">[];
  reviewer: TReviewerEvent[];
  notifications: TEventOf<"user.notified">[];
  actions: TEventOf<"model.action">[];
  /** Meter readings of the fact owners: requests, time, block edits. */
  facts: TEventOf<"meter.requests" | "meter.time" | "block.edited">[];
}

/** Reads a turn's events (as the turn endpoint returns them, already in run order) into a TurnRecord. */
export function readTurnRecord(raw: readonly unknown[]): TurnRecord {
  const record: TurnRecord = {
    events: [],
    unreadable: 0,
    submissions: [],
    submission: null,
    marked: [],
    finals: [],
    compactions: [],
    reviewer: [],
    notifications: [],
    actions: [],
    facts: [],
  };
  for (const item of raw) {
    const parsed = ZEvent.safeParse(item);
    if (!parsed.success || parsed.data.type === "run.started" || parsed.data.type === "run.ended") {
      record.unreadable += parsed.success ? 0 : 1;
      continue;
    }
    const event = parsed.data;
    record.events.push(event);
    switch (event.type) {
      case "request.submitted":
        record.submissions.push(event);
        break;
      case "reminders.marked":
        record.marked.push(event);
        break;
      case "request.final":
        record.finals.push(event);
        break;
      case "context.compaction":
        record.compactions.push(event);
        break;
      case "reviewer.candidate":
      case "reviewer.admission":
      case "reviewer.dispatched":
      case "reviewer.completed":
      case "reviewer.cancelled":
        record.reviewer.push(event);
        break;
      case "user.notified":
        record.notifications.push(event);
        break;
      case "model.action":
        record.actions.push(event);
        break;
      case "meter.requests":
      case "meter.time":
      case "block.edited":
        record.facts.push(event);
        break;
    }
  }
  record.submission = record.submissions.at(-1) ?? null;
  return record;
}

/** The delivery status a submission outcome gives an included reminder (R10); none yet → pending. */
export function statusOfOutcome(submission: TSubmissionEvent | null): "delivered" | "failed" | "uncertain" | "pending" {
  if (!submission) return "pending";
  const { outcome } = submission.body;
  return outcome === "ok" ? "delivered" : outcome;
}
