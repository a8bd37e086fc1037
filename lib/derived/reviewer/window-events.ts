import type { TEvent } from "@/lib/contracts";
import { inRunOrder } from "@/lib/core";
import { chainExtent, reviewerLane } from "./lane";

/** The Reviewer event types the lane reads (lane.ts). */
export const REVIEWER_LANE_EVENT_TYPES = [
  "reviewer.candidate",
  "reviewer.admission",
  "reviewer.dispatched",
  "reviewer.completed",
  "reviewer.cancelled",
] as const;
const LANE_TYPES: ReadonlySet<string> = new Set(REVIEWER_LANE_EVENT_TYPES);

/** The Reviewer lane's events of `events`, in run order. */
function laneEventsInRunOrder(events: readonly TEvent[]): TEvent[] {
  return inRunOrder(events.filter((event) => LANE_TYPES.has(event.type)));
}

/** The candidateId and dispatchId an event of the Reviewer lane carries (null when it has none, or is of another type). */
export function reviewerKeys(event: TEvent): { candidateId: string | null; dispatchId: string | null } {
  switch (event.type) {
    case "reviewer.candidate":
    case "reviewer.admission":
    case "reviewer.cancelled":
      return { candidateId: event.body.candidateId, dispatchId: null };
    case "reviewer.dispatched":
      return { candidateId: event.body.candidateId, dispatchId: event.body.dispatchId };
    case "reviewer.completed":
      return { candidateId: null, dispatchId: event.body.dispatchId };
    default:
      return { candidateId: null, dispatchId: null };
  }
}

/**
 * Which of a run's Reviewer events the Reviewer lane of the window of turns [from, to] needs (pure):
 * with only these (and any events of other types), `reviewerLane` and the window's filter
 * (build-timeline.ts: chains whose extent, an open dispatch reaching `end`, overlaps the window;
 * stray completions in the window) give the same chains, in the same order, and the same stray
 * completions as with all of them.
 *
 * The chains that matter are those whose extent overlaps the window — an item in it, or items on
 * both sides (a dispatch before `from` completed after `to` or never) — and the dispatchIds of the
 * window's stray completions. They are then closed over their keys: every event with one of their
 * candidateIds or dispatchIds, and the keys those carry, until nothing is added. A chain is then
 * whole (its candidate, admissions, dispatches, cancellation) and each dispatchId's dispatches and
 * completions are all there, so a completion is matched (oldest dispatch first) or stray exactly as
 * in the whole run; any chain pulled in that does not overlap the window is left out by the
 * window's filter as it would be with every event.
 *
 * Reads only each event's type, turn, run order (ts, id) and its candidateId / dispatchId, so the
 * caller may pass events whose bodies carry only those (and the defaults the lane reads).
 */
export function reviewerEventsForWindow(events: readonly TEvent[], from: number, to: number, end: number): TEvent[] {
  const ordered = laneEventsInRunOrder(events);
  const lane = reviewerLane({}, [], ordered);
  const candidates = new Set<string>();
  const dispatches = new Set<string>();
  for (const chain of lane.chains) {
    const [first, last] = chainExtent(chain, end);
    if (first <= to && last >= from) candidates.add(chain.candidateId);
  }
  for (const stray of lane.strayCompletions) if (stray.turn >= from && stray.turn <= to) dispatches.add(stray.dispatchId);

  const keys = ordered.map(reviewerKeys);
  const needed = (i: number) =>
    (keys[i].candidateId !== null && candidates.has(keys[i].candidateId!)) ||
    (keys[i].dispatchId !== null && dispatches.has(keys[i].dispatchId!));
  for (let grew = true; grew;) {
    grew = false;
    for (let i = 0; i < ordered.length; i++) {
      if (!needed(i)) continue;
      const { candidateId, dispatchId } = keys[i];
      if (candidateId !== null && !candidates.has(candidateId)) {
        candidates.add(candidateId);
        grew = true;
      }
      if (dispatchId !== null && !dispatches.has(dispatchId)) {
        dispatches.add(dispatchId);
        grew = true;
      }
    }
  }
  return ordered.filter((_, i) => needed(i));
}

/**
 * A chain whose items (an open dispatch: up to the run's end) span more turns than this is a "long"
 * chain: the rebuild stores it (longReviewerChains), so a window finds it without reading the run's
 * Reviewer events outside the window; any other chain that touches a window has an event within
 * this many turns of it.
 */
export const SHORT_CHAIN_TURNS = 50;

/** A long chain as the rebuild stores it: its candidateId and the first and last turn it touches. */
export type TReviewerSpan = [candidateId: string, first: number, last: number];

/**
 * The run's chains whose extent (chainExtent, an open dispatch reaching `end`, the run's last
 * rebuilt turn) spans more than SHORT_CHAIN_TURNS turns, in the lane's order (pure).
 */
export function longReviewerChains(events: readonly TEvent[], end: number): TReviewerSpan[] {
  const ordered = laneEventsInRunOrder(events);
  const spans: TReviewerSpan[] = [];
  for (const chain of reviewerLane({}, [], ordered).chains) {
    const [first, last] = chainExtent(chain, end);
    if (last - first > SHORT_CHAIN_TURNS) spans.push([chain.candidateId, first, last]);
  }
  return spans;
}

/**
 * Where a window's search for its chains starts (pure): the candidateIds of the stored long chains
 * that overlap [from, to]. With the Reviewer events within SHORT_CHAIN_TURNS turns of the window
 * and those that arrived after the rebuild (their keys followed by `keysToFollow`), they reach every
 * chain that touches or spans the window: a chain no new event changed is as the rebuild saw it,
 * long (stored) or short (an event near the window).
 */
export function longChainsOverlapping(spans: readonly TReviewerSpan[], from: number, to: number): string[] {
  return spans.filter(([, first, last]) => first <= to && last >= from).map(([candidateId]) => candidateId);
}

/** The candidateIds and dispatchIds the events carry that are not in `known` yet (pure). */
export function keysToFollow(
  events: readonly TEvent[],
  known: { candidateIds: ReadonlySet<string>; dispatchIds: ReadonlySet<string> },
): { candidateIds: string[]; dispatchIds: string[] } {
  const candidateIds = new Set<string>();
  const dispatchIds = new Set<string>();
  for (const event of events) {
    const { candidateId, dispatchId } = reviewerKeys(event);
    if (candidateId !== null && !known.candidateIds.has(candidateId)) candidateIds.add(candidateId);
    if (dispatchId !== null && !known.dispatchIds.has(dispatchId)) dispatchIds.add(dispatchId);
  }
  return { candidateIds: [...candidateIds], dispatchIds: [...dispatchIds] };
}
