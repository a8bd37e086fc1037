import type { TMeterProjection, TRunProjection } from "@/lib/contracts";

/** The projection looks at least this many turns ahead of the last turn on the charts. */
export const MIN_AHEAD_TURNS = 30;
/** …and at most this share of the run's turns so far, so the run itself keeps most of the width. */
export const MAX_AHEAD_SHARE = 0.5;
/** Points drawn along the projection's band (the band is straight until it meets the limit). */
const BAND_POINTS = 24;

/**
 * How far the run page's shared turn axis reaches past a live run's last turn to draw the projection
 * (docs/projection.md): to the first limit at the fitted pace, at least MIN_AHEAD_TURNS and at most
 * MAX_AHEAD_SHARE of the run's turns (or MIN_AHEAD_TURNS), so a limit far away does not squeeze
 * the run. Null when there is nothing to draw.
 */
export function projectionHorizon(projection: TRunProjection | null, extent: readonly [number, number]): number | null {
  if (!projection || projection.meters.length === 0) return null;
  const last = projection.lastTurn;
  const most = Math.max(MIN_AHEAD_TURNS, Math.round((extent[1] - extent[0] + 1) * MAX_AHEAD_SHARE));
  const wanted = projection.first ? projection.first.turn - last : most;
  return last + Math.min(most, Math.max(MIN_AHEAD_TURNS, wanted));
}

/** A projected point: the meter at the fitted pace, and the band its pace's 95% interval allows. */
export interface ProjectedPoint {
  turn: number;
  /** At the fitted pace (null past the turn it reaches the cap: the line stops there). */
  projected: number | null;
  /** [slowest, fastest] pace's value, each held at the cap once reached. */
  band: [number, number];
}

/**
 * The projection drawn on a meter's chart, in the meter's unit, from its last reading to `horizon`:
 * the fitted pace's line (ending where it reaches `cap`, the meter's limit) and the band between the
 * slowest and fastest pace of its interval (each held at the cap once there, and never below 0). A pace that falls is
 * drawn falling: a projection of the recent pace, whatever it is. None for a meter already at its limit.
 */
export function projectionPath(meter: TMeterProjection, horizon: number, cap: number): ProjectedPoint[] {
  const from = meter.toTurn;
  // Nothing ahead: at the horizon already, or the meter already at its limit.
  if (!(horizon > from) || meter.value >= cap) return [];
  const at = (pace: number, turn: number) => Math.max(0, Math.min(cap, meter.value + pace * (turn - from)));
  const turns = new Set<number>();
  for (let i = 0; i <= BAND_POINTS; i++) turns.add(Math.round(from + ((horizon - from) * i) / BAND_POINTS));
  // Where each line meets the cap, so the band's corners and the line's end are exact.
  for (const pace of [meter.perTurn, meter.perTurnLow, meter.perTurnHigh]) {
    if (pace > 0) {
      const meets = from + (cap - meter.value) / pace;
      if (meets < horizon) turns.add(Math.ceil(meets));
    }
  }
  const fittedEnd = meter.perTurn > 0 ? from + (cap - meter.value) / meter.perTurn : Infinity;
  return [...turns]
    .sort((a, b) => a - b)
    .map((turn) => {
      const slow = at(meter.perTurnLow, turn);
      const fast = at(meter.perTurnHigh, turn);
      return {
        turn,
        projected: turn <= Math.ceil(fittedEnd) ? at(meter.perTurn, turn) : null,
        band: [Math.min(slow, fast), Math.max(slow, fast)],
      };
    });
}
