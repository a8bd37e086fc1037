import type { TEvent, TPolicy, TRebuiltReviewer, TReviewerChain, TReviewerDispatch, TReviewerLane, TTurnDecision } from "@/lib/contracts";
import { msToMinutes } from "@/lib/format/time";

/**
 * The Reviewer lane: the rebuild's own candidates and admissions (what the rules say, R13) beside
 * the recorded chains (what the agent and runtime did), never merged (R12).
 *
 * `ordered` are the run's events in run order. A dispatch runs from its `reviewer.dispatched` to
 * the first `reviewer.completed` with its dispatchId after it (only a completion ends a dispatch;
 * a dispatchId dispatched twice is completed oldest first). A completion that matches no running
 * dispatch is listed in `strayCompletions`.
 */
export function reviewerLane(policy: TPolicy, turns: readonly TTurnDecision[], ordered: readonly TEvent[]): TReviewerLane {
  const rebuilt: TRebuiltReviewer[] = [];
  for (const { turn, reviewer } of turns) {
    if (reviewer) {
      const { granted, reasons } = reviewer.admission;
      rebuilt.push({ turn, checkpoint: reviewer.candidate.checkpoint, granted, reasons: [...reasons] });
    }
  }

  const chains = new Map<string, TReviewerChain>();
  const chainOf = (candidateId: string): TReviewerChain => {
    let chain = chains.get(candidateId);
    if (!chain) {
      chain = { candidateId, turn: null, checkpoint: null, admissions: [], dispatches: [] };
      chains.set(candidateId, chain);
    }
    return chain;
  };
  /** Dispatches not completed yet, per dispatchId, oldest first. */
  const running = new Map<string, TReviewerDispatch[]>();
  const strayCompletions: TReviewerLane["strayCompletions"] = [];

  for (const event of ordered) {
    switch (event.type) {
      case "reviewer.candidate": {
        const chain = chainOf(event.body.candidateId);
        if (chain.turn === null) {
          chain.turn = event.turn;
          chain.checkpoint = event.body.checkpoint ?? null;
        }
        break;
      }
      case "reviewer.admission":
        chainOf(event.body.candidateId).admissions.push({
          turn: event.turn,
          granted: event.body.granted,
          reasons: [...event.body.reasons],
        });
        break;
      case "reviewer.dispatched": {
        const dispatch: TReviewerDispatch = { dispatchId: event.body.dispatchId, turn: event.turn, doneTurn: null };
        chainOf(event.body.candidateId).dispatches.push(dispatch);
        const same = running.get(dispatch.dispatchId);
        if (same) same.push(dispatch);
        else running.set(dispatch.dispatchId, [dispatch]);
        break;
      }
      case "reviewer.completed": {
        const dispatch = running.get(event.body.dispatchId)?.shift();
        if (!dispatch) {
          strayCompletions.push({ turn: event.turn, dispatchId: event.body.dispatchId });
          break;
        }
        dispatch.doneTurn = event.turn;
        if (event.body.verdict !== undefined) dispatch.verdict = event.body.verdict;
        break;
      }
      case "reviewer.cancelled": {
        const chain = chainOf(event.body.candidateId);
        chain.cancelled ??= { turn: event.turn, reason: event.body.reason };
        break;
      }
    }
  }

  const review = policy.review;
  return {
    schedule: review
      ? { everyTurns: review.everyTurns ?? null, afterMin: review.afterMs === undefined ? null : msToMinutes(review.afterMs) }
      : null,
    admission: policy.reviewer
      ? { autoReviewAllowed: policy.reviewer.autoReviewAllowed, minRequestsLeft: policy.reviewer.minRequestsLeft }
      : null,
    rebuilt,
    chains: [...chains.values()],
    strayCompletions,
  };
}

/** The turns a chain touches, from its first item to its last (an open dispatch reaches `end`); [∞, −∞] for a chain with no item. */
export function chainExtent(chain: TReviewerChain, end: number): [number, number] {
  const turns: number[] = [];
  if (chain.turn !== null) turns.push(chain.turn);
  for (const admission of chain.admissions) turns.push(admission.turn);
  for (const dispatch of chain.dispatches) turns.push(dispatch.turn, dispatch.doneTurn ?? Math.max(end, dispatch.turn));
  if (chain.cancelled) turns.push(chain.cancelled.turn);
  return [Math.min(...turns), Math.max(...turns)];
}
