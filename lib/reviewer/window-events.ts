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
  const ordered = inRunOrder(events.filter((event) => (REVIEWER_LANE_EVENT_TYPES as readonly string[]).includes(event.type)));
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
