import type { TEvent, TFinding, TPolicy } from "../contracts";
import type { MeterFacts } from "./facts";
import { admit, DispatchTracker } from "./reviewer";

const CANCELLED_BY_DROP = new Set(["reminder_dropped", "reminder_not_delivered"]);

/**
 * Walks events in run order and makes the findings that come from single events and from the
 * Reviewer flow (SPEC §7): FREE_REQUEST, REMINDER_RESEND, DISPATCH_WITHOUT_ADMISSION,
 * CONCURRENT_DISPATCH, ADMISSION_RULE_MISMATCH, CANDIDATE_CANCELLED_BY_DROP,
 * GLOBAL_STOP_ON_LOCAL_QUOTA. These are made for every turn, rebuilt or skipped (R14).
 */
export class EventAudit {
  readonly dispatches = new DispatchTracker();
  private readonly admitted = new Set<string>();

  constructor(private readonly policy: TPolicy) {}

  /** `facts` must already hold the readings of the event's turn (R13: "the facts of the admission's turn"). */
  observe(event: TEvent, facts: MeterFacts, findings: TFinding[]): void {
    const turn = event.type === "run.started" || event.type === "run.ended" ? null : event.turn;
    const add = (code: TFinding["code"], detail: string) => findings.push({ code, turn, detail });
    switch (event.type) {
      case "request.submitted":
        if (event.body.countsAgainstBudget === false) {
          add("FREE_REQUEST", `Request ${JSON.stringify(event.id)} did not count against the request budget (countsAgainstBudget: false).`);
        }
        if (event.body.purpose === "reminder_resend") {
          add("REMINDER_RESEND", `Request ${JSON.stringify(event.id)} was sent only to resend reminders (purpose: reminder_resend).`);
        }
        break;
      case "reviewer.admission": {
        const { candidateId, granted } = event.body;
        if (this.policy.reviewer) {
          const rule = admit(this.policy, facts.requestsUsed, this.dispatches.inProgress());
          if (rule.granted !== granted) {
            add(
              "ADMISSION_RULE_MISMATCH",
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
          add("DISPATCH_WITHOUT_ADMISSION", `Dispatch ${JSON.stringify(dispatchId)} ran candidate ${JSON.stringify(candidateId)}, which had no granted admission before it.`);
        }
        if (this.dispatches.inProgress(dispatchId)) {
          add("CONCURRENT_DISPATCH", `Dispatch ${JSON.stringify(dispatchId)} started while another Reviewer dispatch was still in progress.`);
        }
        this.dispatches.dispatch(dispatchId);
        break;
      }
      case "reviewer.completed":
        this.dispatches.complete(event.body.dispatchId);
        break;
      case "reviewer.cancelled":
        if (CANCELLED_BY_DROP.has(event.body.reason)) {
          add(
            "CANDIDATE_CANCELLED_BY_DROP",
            `Candidate ${JSON.stringify(event.body.candidateId)} was cancelled because a reminder was not delivered (${event.body.reason}); a dropped reminder never cancels a Reviewer candidate.`,
          );
        }
        break;
      case "run.ended":
        if (event.body.reason === "edit_quota_exhausted") {
          add("GLOBAL_STOP_ON_LOCAL_QUOTA", "The run was ended because a block's edit quota ran out; an exhausted block is a local limit, not a reason to stop.");
        }
        break;
      default:
        break;
    }
  }
}
