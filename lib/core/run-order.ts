import { parseInstant, type TEvent } from "../contracts";
import { compareCodePoints } from "./code-points";
import { sameJson } from "./canonical";
import { RunInputError } from "./errors";

interface Keyed {
  event: TEvent;
  rank: number;
  ms: number;
  sub: string;
}

const FIRST = -1;
const LAST = Number.POSITIVE_INFINITY;

function keyed(event: TEvent): Keyed {
  const instant = parseInstant(event.ts);
  const rank = event.type === "run.started" ? FIRST : event.type === "run.ended" ? LAST : event.turn;
  return { event, rank, ms: instant?.ms ?? 0, sub: instant?.sub ?? "" };
}

function compareKeyed(a: Keyed, b: Keyed): number {
  if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
  if (a.ms !== b.ms) return a.ms - b.ms;
  // Fraction digits past the millisecond, trailing zeros stripped: plain string order is numeric order.
  if (a.sub !== b.sub) return a.sub < b.sub ? -1 : 1;
  return compareCodePoints(a.event.id, b.event.id);
}

/**
 * Removes exact repeats (same id, same content) and sorts into run order (SPEC §2): `run.started`
 * first, `run.ended` last, the rest by turn, then ts as an instant, then id by code point.
 * The result does not depend on arrival order. The same id with other content is an error.
 */
export function inRunOrder(events: readonly TEvent[]): TEvent[] {
  const byId = new Map<string, TEvent>();
  const unique: Keyed[] = [];
  for (const event of events) {
    const seen = byId.get(event.id);
    if (seen === undefined) {
      byId.set(event.id, event);
      unique.push(keyed(event));
    } else if (!sameJson(seen, event)) {
      throw new RunInputError(`event id ${JSON.stringify(event.id)} is used twice with different content`, event.id);
    }
  }
  return unique.sort(compareKeyed).map((k) => k.event);
}
