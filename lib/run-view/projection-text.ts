import type { TMeterProjection, TProjectionCheck, TReach } from "@/lib/contracts";
import { formatInUnit, formatMinutes, formatNumber, formatTurn } from "@/lib/format";

const LIMIT_WORDS: Record<TMeterProjection["meter"], string> = {
  requests: "the usable requests run out",
  time: "the time limit",
  context: "the capacity",
};

/** A projected turn with its interval: "turn 50 (48–53)", "turn 50 (48 or later)"; null: "not at this pace". */
export function reachText(reach: TReach): string {
  if (reach.turn === null) return "not at this pace";
  const low = reach.turnLow === null ? "?" : formatNumber(reach.turnLow);
  const range =
    reach.turnLow === reach.turn && reach.turnHigh === reach.turn
      ? ""
      : reach.turnHigh === null
        ? ` (${low} or later)`
        : ` (${low}–${formatNumber(reach.turnHigh)})`;
  const minute = reach.minute === null ? "" : `, at ${formatMinutes(reach.minute)} on the run clock`;
  return `${formatTurn(reach.turn)}${range}${minute}`;
}

/**
 * One meter's projection in words, in its own unit: its pace with the pace's interval, then when it
 * reaches its next stage and its limit at that pace.
 * "+2 requests a turn (1.8–2.2) over turns 10–39: stage 3 at turn 45; the usable requests run out at turn 50 (48–53)."
 */
export function projectionText(m: TMeterProjection): string {
  const unit = (v: number) => formatInUnit(m.unit, v);
  const pace = `${m.perTurn >= 0 ? "+" : "−"}${unit(Math.abs(m.perTurn))} a turn (95%: ${unit(m.perTurnLow)} to ${unit(m.perTurnHigh)}) over turns ${formatNumber(m.fromTurn)}–${formatNumber(m.toTurn)}`;
  const stage = m.nextStage ? `stage ${m.nextStage.stage} at ${reachText(m.nextStage)}; ` : "";
  return `${pace}: ${stage}${LIMIT_WORDS[m.meter]} at ${reachText(m.limit)}.`;
}

/**
 * One check of the projection in words (docs/projection.md#how-far-off): what was reached when, and
 * how that compares with what the projection made `leadTurns` before said.
 * "Stage 2 reached at turn 51, 24 turns sooner than projected at turn 21: turn 75 (70–80), outside its interval."
 */
export function checkText(check: TProjectionCheck): string {
  const reached = `${check.stage === null ? "The limit" : `Stage ${check.stage}`} reached at ${formatTurn(check.reachedTurn)}`;
  const made = `projected at ${formatTurn(check.madeAtTurn)}`;
  if (check.turn === null || check.offBy === null) return `${reached}; ${made}, it was not reached at that pace.`;
  const said = reachText({ ...check, minute: null, minuteLow: null, minuteHigh: null });
  const n = Math.abs(check.offBy);
  const off = n === 0 ? "as" : `${formatNumber(n)} turn${n === 1 ? "" : "s"} ${check.offBy > 0 ? "sooner than" : "later than"}`;
  return `${reached}, ${off} ${made}: ${said}, ${check.inside ? "inside" : "outside"} its interval.`;
}
