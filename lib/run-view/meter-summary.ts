import type { TMeterPoint, TMeterUnit } from "@/lib/contracts";
import { formatInUnit, formatTurn, formatTurnRange } from "@/lib/format";

/**
 * One sentence saying what a meter chart shows, for readers who do not see it (the chart's text
 * alternative, beside its "view as table"): the series' first and last value in the meter's own
 * unit, its highest, and the turn where each stage was first reached.
 * "requests used went from 1 to 287 requests over turns 0–419 (highest 287 requests at turn 419); stage 1 from turn 120, stage 2 from turn 250."
 */
export function meterSummary(seriesName: string, unit: TMeterUnit, points: readonly TMeterPoint[]): string {
  if (points.length === 0) return `${seriesName}: no reading in these turns.`;
  const first = points[0];
  const last = points[points.length - 1];
  let top = first;
  for (const p of points) if (p.value > top.value) top = p;
  const stages: string[] = [];
  let reached = 0;
  for (const p of points) {
    if (p.stage > reached) {
      for (let s = reached + 1; s <= p.stage; s++) stages.push(`stage ${s} from ${formatTurn(p.turn)}`);
      reached = p.stage;
    }
  }
  const span = points.length === 1 ? formatTurn(first.turn) : `over ${formatTurnRange(first.turn, last.turn)}`;
  const change =
    points.length === 1
      ? `${seriesName} was ${formatInUnit(unit, first.value)} at ${span}`
      : `${seriesName} went from ${formatInUnit(unit, first.value)} to ${formatInUnit(unit, last.value)} ${span} (highest ${formatInUnit(unit, top.value)} at ${formatTurn(top.turn)})`;
  return `${change}; ${stages.length ? stages.join(", ") : "no stage reached"}.`;
}
