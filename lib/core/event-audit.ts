import { isCancelledByDrop, type TEvent, type TFinding, type TPolicy } from "@/lib/contracts";
import type { MeterFacts } from "./facts";
import { IdSet, type IdRanges } from "./id-ranges";
import { admit, DispatchTracker, type DispatchTrackerState } from "./reviewer";

/** An EventAudit's state as plain JSON, for a rebuild checkpoint (its policy is kept beside it). */
export interface EventAuditState {
  /** Every candidate with a granted admission so far. */
  admitted: IdRanges;
  dispatches: DispatchTrackerState;
}

/**
 * Walks events in run order and makes the findings that come from single events and from the
 * Reviewer flow (contract §7): FREE_REQUEST, REMINDER_RESEND, DISPATCH_WITHOUT_ADMISSION,
 * CONCURRENT_DISPATCH, ADMISSION_RULE_MISMATCH, CANDIDATE_CANCELLED_BY_DROP,
 * GLOBAL_STOP_ON_LOCAL_QUOTA. These are made for every turn, rebuilt or skipped (R14).
 */
export class EventAudit {
  readonly dispatches: DispatchTracker;
  private readonly admitted: IdSet;

  /** A fresh audit, or one that goes on from a `snapshot` of an audit with the same policy. */
  constructor(
    private readonly policy: TPolicy,
    state?: EventAuditState,
  ) {
    this.dispatches = state ? DispatchTracker.restore(state.dispatches) : new DispatchTracker();
    this.admitted = state ? IdSet.fromRanges(state.admitted) : new IdSet();
  }

  /** The audit's state as plain JSON (a copy: later events do not change it). */
  snapshot(): EventAuditState {
    return { admitted: this.admitted.toRanges(), dispatches: this.dispatches.snapshot() };
  }

  /** `facts` must already hold the readings of the event's turn (R13: "the facts of the admission's turn"). */
  observe(event: TEvent, facts: MeterFacts, findings: TFinding[]): void {
    switch (event.type) {
      case "request.submitted":
        if (event.body.countsAgainstBudget === false) {
          add(
            findings,
            "FREE_REQUEST",
            event.turn,
            `Request ${JSON.stringify(event.id)} did not count against the request budget (countsAgainstBudget: false).`,
          );
        }
        if (event.body.purpose === "reminder_resend") {
          add(
            findings,
            "REMINDER_RESEND",
            event.turn,
            `Request ${JSON.stringify(event.id)} was sent only to resend reminders (purpose: reminder_resend).`,
          );
        }
        break;
      case "reviewer.admission": {
        const { candidateId, granted } = event.body;
        if (this.policy.reviewer) {
          const rule = admit(this.policy, facts.requestsUsed, this.dispatches.inProgress());
          if (rule.granted !== granted) {
            add(
              findings,
              "ADMISSION_RULE_MISMATCH",
              event.turn,
              `Admission of candidate ${JSON.stringify(candidateId)} was recorded as ${granted ? "granted" : "denied"}; the rule says ${rule.granted ? "granted" : `denied (${rule.reasons.join(", ")})`}.`,
            );
          }
        }
        if (granted) this.admitted.add(candidateId);
        break;
      }
      case "reviewer.dispatched": {
        const { candidateId, dispatchId } = event.body;
        if (!this.admitted.has(candidateId)) {
          add(
            findings,
            "DISPATCH_WITHOUT_ADMISSION",
            event.turn,
            `Dispatch ${JSON.stringify(dispatchId)} ran candidate ${JSON.stringify(candidateId)}, which had no granted admission before it.`,
          );
        }
        if (this.dispatches.inProgress(dispatchId)) {
          add(
            findings,
            "CONCURRENT_DISPATCH",
            event.turn,
            `Dispatch ${JSON.stringify(dispatchId)} started while another Reviewer dispatch was still in progress.`,
          );
        }
        this.dispatches.dispatch(dispatchId);
        break;
      }
      case "reviewer.completed":
        this.dispatches.complete(event.body.dispatchId);
        break;
      case "reviewer.cancelled":
        if (isCancelledByDrop(event.body.reason)) {
          add(
            findings,
            "CANDIDATE_CANCELLED_BY_DROP",
            event.turn,
            `Candidate ${JSON.stringify(event.body.candidateId)} was cancelled because a reminder was not delivered (${event.body.reason}); a dropped reminder never cancels a Reviewer candidate.`,
          );
        }
        break;
      case "run.ended":
        if (event.body.reason === "edit_quota_exhausted") {
          add(
            findings,
            "GLOBAL_STOP_ON_LOCAL_QUOTA",
            null,
            "The run was ended because a block's edit quota ran out; an exhausted block is a local limit, not a reason to stop.",
          );
        }
        break;
      default:
        break;
    }
  }
}

function add(findings: TFinding[], code: TFinding["code"], turn: number | null, detail: string): void {
  findings.push({ code, turn, detail });
}
