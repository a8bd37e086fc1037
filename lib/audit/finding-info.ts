import type { TFindingCode } from "@/lib/contracts";

export type FindingSeverity = "violation" | "mismatch" | "notice";

export interface FindingInfo {
  /** Short title for lists. */
  title: string;
  /** The rule it breaks or the fact it records, in one plain sentence. */
  rule: string;
  /** Where in the spec the rule lives. */
  ref: string;
  /**
   * violation: a rule of the mechanism was broken (a Reviewer or a run was handled wrongly);
   * mismatch: the agent's own record disagrees with the rebuild; notice: worth knowing, not wrong.
   */
  severity: FindingSeverity;
}

/** What each audit finding code means (contract §7), for people. */
export const FINDING_INFO: Record<TFindingCode, FindingInfo> = {
  INCOMPLETE_TURN: {
    title: "Incomplete turn",
    rule: "The turn has events but no request.final, so its request cannot be rebuilt; it is skipped (R14).",
    ref: "R14",
    severity: "notice",
  },
  MISSING_REMINDER: {
    title: "Missing reminder",
    rule: "The rebuild put this reminder in the request, but the agent's submitted list does not have it.",
    ref: "§7",
    severity: "mismatch",
  },
  UNEXPECTED_REMINDER: {
    title: "Unexpected reminder",
    rule: "The agent's submitted list has a reminder the rebuild did not include in this request.",
    ref: "§7",
    severity: "mismatch",
  },
  STAGE_MISMATCH: {
    title: "Stage mismatch",
    rule: "The agent and the rebuild both included this reminder, at different stages.",
    ref: "R2, R3",
    severity: "mismatch",
  },
  DUPLICATE_REMINDER: {
    title: "Duplicate reminder",
    rule: "The same reminder (key and subject) appears more than once in the agent's list.",
    ref: "R4",
    severity: "mismatch",
  },
  MARKED_NOT_SUBMITTED: {
    title: "Marked, not submitted",
    rule: "The agent's ledger marked a reminder as delivered that was not in a successfully submitted request (R10: record only what was sent).",
    ref: "R10",
    severity: "mismatch",
  },
  CONTEXT_FROM_ABANDONED_CANDIDATE: {
    title: "Context from abandoned candidate",
    rule: "The agent's context stage matches a compaction candidate that was rolled back, not the request that was sent (R9: measure the final request).",
    ref: "R9",
    severity: "violation",
  },
  FREE_REQUEST: {
    title: "Free request",
    rule: "A request did not count against the request budget (countsAgainstBudget: false).",
    ref: "§4",
    severity: "notice",
  },
  REMINDER_RESEND: {
    title: "Reminder resend",
    rule: "A request was sent only to resend reminders.",
    ref: "R10",
    severity: "notice",
  },
  UNCERTAIN_RESENT: {
    title: "Uncertain reminder resent",
    rule: "A reminder from a request with an uncertain outcome was sent again at the same stage; an uncertain outcome counts as possibly delivered (R10).",
    ref: "R10",
    severity: "violation",
  },
  DISPATCH_WITHOUT_ADMISSION: {
    title: "Dispatch without admission",
    rule: "A Reviewer was dispatched without a granted admission for its candidate; a delivered reminder is never a licence to dispatch (R12).",
    ref: "R12, R13",
    severity: "violation",
  },
  CONCURRENT_DISPATCH: {
    title: "Concurrent dispatch",
    rule: "A Reviewer was dispatched while another dispatch was still in progress (R13).",
    ref: "R13",
    severity: "violation",
  },
  ADMISSION_RULE_MISMATCH: {
    title: "Admission against the rule",
    rule: "A recorded admission differs from R13: auto review allowed, enough requests left, and no review in progress.",
    ref: "R13",
    severity: "violation",
  },
  CANDIDATE_CANCELLED_BY_DROP: {
    title: "Candidate cancelled by a drop",
    rule: "A Reviewer candidate was cancelled because a reminder was dropped or not delivered; a dropped reminder never cancels a candidate (R12).",
    ref: "R12",
    severity: "violation",
  },
  GLOBAL_STOP_ON_LOCAL_QUOTA: {
    title: "Run stopped on a local quota",
    rule: "The run was ended because one block ran out of edits; an exhausted block limits only that block (R6).",
    ref: "R6",
    severity: "violation",
  },
};

export const SEVERITY_ORDER: readonly FindingSeverity[] = ["violation", "mismatch", "notice"];

export function findingInfo(code: TFindingCode): FindingInfo {
  return FINDING_INFO[code];
}
