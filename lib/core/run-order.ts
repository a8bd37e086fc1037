import { parseCommonInstantMs, parseInstant, type TEvent } from "@/lib/contracts";
import { compareCodePoints } from "./code-points";
import { sameJson } from "./canonical";
import { RunInputError } from "./errors";

const FIRST = -1;
const LAST = Number.POSITIVE_INFINITY;

/** An event's rank in run order: run.started first, run.ended last, the rest by turn. */
function rankOf(event: TEvent): number {
  return event.type === "run.started" ? FIRST : event.type === "run.ended" ? LAST : event.turn;
}

const NOT_AN_INSTANT = { ms: 0, sub: "" };

/**
 * ts as an instant for the general case: whole milliseconds since the epoch plus the fraction
 * digits past the millisecond, trailing zeros stripped (plain string order is then numeric order).
 * Callers first try parseCommonInstantMs, which needs no object and holds for nearly every ts.
 */
function generalInstant(ts: string): { ms: number; sub: string } {
  return parseInstant(ts) ?? NOT_AN_INSTANT;
}

/**
 * Compares two events' run-order keys (rank, ms, sub, id); negative when a comes first. Never 0
 * for two distinct ids.
 */
function compareKeys(rankA: number, msA: number, subA: string, idA: string, rankB: number, msB: number, subB: string, idB: string): number {
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  if (msA !== msB) return msA - msB;
  if (subA !== subB) return subA < subB ? -1 : 1;
  return compareCodePoints(idA, idB);
}

/**
 * Removes exact repeats (same id, same content) and sorts into run order (contract §2): `run.started`
 * first, `run.ended` last, the rest by turn, then ts as an instant, then id by code point.
 * The result does not depend on arrival order. The same id with other content is an error.
 */
export function inRunOrder(events: readonly TEvent[]): TEvent[] {
  const ordered = runOrder(events);
  return ordered === events ? events.slice() : (ordered as TEvent[]);
}

/**
 * As inRunOrder, but returns the given array itself when it already is in run order without
 * repeats — the usual case for a stored or generated run — so nothing is copied or sorted. The
 * caller must not change the result.
 */
export function runOrder(events: readonly TEvent[]): readonly TEvent[] {
  const unique = idsAscend(events) ? events : withoutRepeats(events);
  return isInRunOrder(unique) ? unique : sortIntoRunOrder(unique);
}

/** One pass: whether each event comes after the one before it in run order. */
function isInRunOrder(events: readonly TEvent[]): boolean {
  let rank = FIRST,
    ms = 0,
    sub = "",
    id = "";
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const eventRank = rankOf(event);
    let eventMs = parseCommonInstantMs(event.ts);
    let eventSub = "";
    if (eventMs !== eventMs) ({ ms: eventMs, sub: eventSub } = generalInstant(event.ts));
    if (i > 0 && compareKeys(rank, ms, sub, id, eventRank, eventMs, eventSub, event.id) > 0) return false;
    rank = eventRank;
    ms = eventMs;
    sub = eventSub;
    id = event.id;
  }
  return true;
}

/**
 * Sorts events with distinct ids into run order: the keys are computed once, column by column
 * (no object per event), and an array of indices is sorted. The key is a strict total order on
 * events with distinct ids, so any correct sort gives the same result.
 */
function sortIntoRunOrder(events: readonly TEvent[]): TEvent[] {
  const n = events.length;
  const rank = new Float64Array(n);
  const ms = new Float64Array(n);
  const sub = new Array<string>(n);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    rank[i] = rankOf(events[i]);
    ms[i] = parseCommonInstantMs(events[i].ts);
    sub[i] = "";
    if (ms[i] !== ms[i]) ({ ms: ms[i], sub: sub[i] } = generalInstant(events[i].ts));
    order[i] = i;
  }
  order.sort((i, j) => compareKeys(rank[i], ms[i], sub[i], events[i].id, rank[j], ms[j], sub[j], events[j].id));
  const ordered = new Array<TEvent>(n);
  for (let i = 0; i < n; i++) ordered[i] = events[order[i]];
  return ordered;
}

/** A new array of the events with exact repeats removed (the first of each id is kept). */
function withoutRepeats(events: readonly TEvent[]): TEvent[] {
  const byId = new Map<string, TEvent>();
  const unique: TEvent[] = [];
  for (const event of events) {
    const seen = byId.get(event.id);
    if (seen === undefined) {
      byId.set(event.id, event);
      unique.push(event);
    } else if (!sameJson(seen, event)) {
      throw new RunInputError(`event id ${JSON.stringify(event.id)} is used twice with different content`, event.id);
    }
  }
  return unique;
}

/**
 * Whether every id is greater than the one before it (UTF-16 order; any strict order will do):
 * then no id repeats and no lookup table is needed. Agents that make ids sort in emission order
 * (contract §4) pass this test.
 */
function idsAscend(events: readonly TEvent[]): boolean {
  for (let i = 1; i < events.length; i++) if (!(events[i - 1].id < events[i].id)) return false;
  return true;
}
