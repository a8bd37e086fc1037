import type { TCompareQuery, TRunComparison, TTurnDecision } from "@/lib/contracts";
import { firstDifferingTurn, turnDifference } from "./turn-difference";

/** Turns compared per slice while looking for the next difference: a step stops at the first slice that has one. */
const SLICE_TURNS = 256;

/**
 * The comparison of two runs' decisions held in memory (a recorded run and its what-if, both
 * whole: docs/compare.md), answered as `GET /api/v1/compare` answers for two stored runs: the
 * first differing turn, the difference from `turn` in `direction` (or `turn` itself for `at`;
 * without `turn`, the first difference, or the last for `previous`), both decisions at the turn
 * found and how they differ. "Differs" is `turnDifference`'s, the one definition both use. Turns
 * are compared from 0 to the earlier of the two last turns. `a` and `b` are in ascending turn order.
 */
export function compareTurns(
  a: readonly TTurnDecision[],
  b: readonly TTurnDecision[],
  query: Pick<TCompareQuery, "turn" | "direction">,
): Omit<TRunComparison, "a" | "b" | "ready"> {
  const lastTurns = { a: a.at(-1)?.turn ?? null, b: b.at(-1)?.turn ?? null };
  const common: [number, number] | null = lastTurns.a === null || lastTurns.b === null ? null : [0, Math.min(lastTurns.a, lastTurns.b)];
  const answer: Omit<TRunComparison, "a" | "b" | "ready"> = { commonTurns: common, lastTurns, first: null, turn: null, decisions: null };
  if (!common) return answer;

  answer.first = findDifference(a, b, common, common[0], "next");
  const { turn, direction } = query;
  if (turn === undefined) answer.turn = direction === "previous" ? findDifference(a, b, common, common[1], "previous") : answer.first;
  else if (direction === "at") answer.turn = turn;
  else answer.turn = findDifference(a, b, common, direction === "next" ? turn + 1 : turn - 1, direction);
  if (answer.turn !== null) {
    const [decisionA, decisionB] = [turnAt(a, answer.turn), turnAt(b, answer.turn)];
    answer.decisions = { a: decisionA ?? null, b: decisionB ?? null, difference: turnDifference(decisionA, decisionB) };
  }
  return answer;
}

/** The nearest differing turn from `from` (inclusive) in `direction`, within `common`; slice by slice, so a near one is found without a pass over the whole run. */
function findDifference(
  a: readonly TTurnDecision[],
  b: readonly TTurnDecision[],
  common: [number, number],
  from: number,
  direction: "next" | "previous",
): number | null {
  if ((direction === "next" && from > common[1]) || (direction === "previous" && from < common[0])) return null;
  let at = Math.max(common[0], Math.min(common[1], from));
  while (at >= common[0] && at <= common[1]) {
    const range =
      direction === "next"
        ? { from: at, to: Math.min(common[1], at + SLICE_TURNS - 1) }
        : { from: Math.max(common[0], at - SLICE_TURNS + 1), to: at };
    const found = firstDifferingTurn(slice(a, range), slice(b, range), range, direction);
    if (found !== null) return found;
    at = direction === "next" ? range.to + 1 : range.from - 1;
  }
  return null;
}

/** The first index whose turn is at least `turn` (binary search over ascending turns). */
function lowerBound(turns: readonly TTurnDecision[], turn: number): number {
  let [lo, hi] = [0, turns.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (turns[mid].turn < turn) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function slice(turns: readonly TTurnDecision[], range: { from: number; to: number }): readonly TTurnDecision[] {
  return turns.slice(lowerBound(turns, range.from), lowerBound(turns, range.to + 1));
}

function turnAt(turns: readonly TTurnDecision[], turn: number): TTurnDecision | undefined {
  const found = turns[lowerBound(turns, turn)];
  return found?.turn === turn ? found : undefined;
}
