import type { TDenialReason, TPolicy, TReviewerDecision } from "@/lib/contracts";
import { fromIdRanges, toIdRanges, type IdRanges } from "./id-ranges";

/**
 * A DispatchTracker as plain JSON, for a rebuild checkpoint. Every dispatch id seen stays in it:
 * a later `reviewer.dispatched` or `reviewer.completed` may name any of them again.
 */
export interface DispatchTrackerState {
  /** Dispatched and not completed. */
  inProgress: IdRanges;
  /** Dispatched and completed. */
  finished: IdRanges;
  /** Completed before any `reviewer.dispatched` named them. */
  completedOnly: IdRanges;
}

/**
 * Which Reviewer dispatches are in progress at a point of run order (R13): its
 * `reviewer.dispatched` came before the point and its `reviewer.completed` did not. Only a
 * completion ends a dispatch.
 */
export class DispatchTracker {
  private readonly dispatched = new Set<string>();
  private readonly completed = new Set<string>();
  private running = 0;

  /** The tracker as plain JSON (a copy). */
  snapshot(): DispatchTrackerState {
    const inProgress: string[] = [];
    const finished: string[] = [];
    const completedOnly: string[] = [];
    for (const id of this.dispatched) (this.completed.has(id) ? finished : inProgress).push(id);
    for (const id of this.completed) if (!this.dispatched.has(id)) completedOnly.push(id);
    return { inProgress: toIdRanges(inProgress), finished: toIdRanges(finished), completedOnly: toIdRanges(completedOnly) };
  }

  /** A tracker equal to the one `snapshot` was taken of. */
  static restore(state: DispatchTrackerState): DispatchTracker {
    const tracker = new DispatchTracker();
    for (const id of fromIdRanges(state.inProgress)) tracker.dispatch(id);
    for (const id of fromIdRanges(state.finished)) {
      tracker.dispatch(id);
      tracker.complete(id);
    }
    for (const id of fromIdRanges(state.completedOnly)) tracker.complete(id);
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
