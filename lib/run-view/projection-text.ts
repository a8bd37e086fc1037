import type { TMeterProjection, TReach } from "@/lib/contracts";
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
