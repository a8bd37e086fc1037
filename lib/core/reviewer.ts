import type { TDenialReason, TPolicy, TReviewerDecision } from "@/lib/contracts";
import { IdSet, type IdRanges } from "./id-ranges";

/**
 * A DispatchTracker as plain JSON, for a rebuild checkpoint. Every dispatch id seen stays in it:
 * a later `reviewer.dispatched` or `reviewer.completed` may name any of them again.
 */
export interface DispatchTrackerState {
  dispatched: IdRanges;
  completed: IdRanges;
  /** How many dispatched ids are not completed. */
  running: number;
}

/**
 * Which Reviewer dispatches are in progress at a point of run order (R13): its
 * `reviewer.dispatched` came before the point and its `reviewer.completed` did not. Only a
 * completion ends a dispatch.
 */
export class DispatchTracker {
  private dispatched = new IdSet();
  private completed = new IdSet();
  private running = 0;

  /** The tracker as plain JSON (a copy). */
  snapshot(): DispatchTrackerState {
    return { dispatched: this.dispatched.toRanges(), completed: this.completed.toRanges(), running: this.running };
  }

  /** A tracker equal to the one `snapshot` was taken of. */
  static restore(state: DispatchTrackerState): DispatchTracker {
    const tracker = new DispatchTracker();
    tracker.dispatched = IdSet.fromRanges(state.dispatched);
    tracker.completed = IdSet.fromRanges(state.completed);
    tracker.running = state.running;
    return tracker;
  }

  dispatch(dispatchId: string): void {
    if (this.dispatched.has(dispatchId)) return;
    this.dispatched.add(dispatchId);
    if (!this.completed.has(dispatchId)) this.running++;
  }

  complete(dispatchId: string): void {
    if (this.completed.has(dispatchId)) return;
    this.completed.add(dispatchId);
    if (this.dispatched.has(dispatchId)) this.running--;
  }

  /** Whether any dispatch is in progress, or any other than `except`. */
  inProgress(except?: string): boolean {
    const own = except !== undefined && this.dispatched.has(except) && !this.completed.has(except) ? 1 : 0;
    return this.running - own > 0;
  }
}

/**
 * R13's admission: granted iff auto review is allowed, `usable − used >= minRequestsLeft` (raw; the
 * condition holds without a requests section or reading), and no dispatch is in progress. The
 * denial reasons are every failing condition, in this order.
 */
export function admit(policy: TPolicy, requestsUsed: number | undefined, reviewInProgress: boolean): TReviewerDecision["admission"] {
  const reasons: TDenialReason[] = [];
  if (!policy.reviewer?.autoReviewAllowed) reasons.push("auto_review_disabled");
  if (policy.requests && requestsUsed !== undefined) {
    const usable = policy.requests.limit - policy.requests.deliveryReserve;
    if (usable - requestsUsed < (policy.reviewer?.minRequestsLeft ?? 0)) reasons.push("insufficient_budget");
  }
  if (reviewInProgress) reasons.push("review_in_progress");
  return { granted: reasons.length === 0, reasons };
}
