import { z } from "zod";

/**
 * What runs out next (docs/projection.md): each meter's recent pace, fitted robustly over the run's
 * last turns, and the turn (and the run clock's minute, when the run has a time meter) at which it
 * reaches its next stage and its limit, with the interval the fit allows. A projection, not a
 * forecast of what the agent will do: it assumes the recent pace goes on.
 */

export const PROJECTED_METERS = ["requests", "time", "context"] as const;
export const ZProjectedMeter = z.enum(PROJECTED_METERS);

/** When a meter reaches a value at its recent pace: the turn, and the interval from the pace's interval. */
export const ZReach = z.object({
  /** The value to reach, in the meter's unit (requests, min, bytes). */
  value: z.number(),
  /** The stage reached there (the limit: null). */
  stage: z.number().int().nullable(),
  /** The projected turn (fractional turns rounded up); null when the recent pace never reaches it. */
  turn: z.number().int().nullable(),
  /** The earliest and latest turn the pace's 95% interval allows (latest null: not reached at the slowest pace). */
  turnLow: z.number().int().nullable(),
  turnHigh: z.number().int().nullable(),
  /** The run clock's minute at `turn` (and its interval), from the time meter's own pace; null without one. */
  minute: z.number().nullable(),
  minuteLow: z.number().nullable(),
  minuteHigh: z.number().nullable(),
});

export const ZMeterProjection = z.object({
  meter: ZProjectedMeter,
  /** The meter's unit: requests, min, bytes. */
  unit: z.enum(["requests", "min", "bytes"]),
  /** The turns fitted (the last ones with a reading) and how many. */
  fromTurn: z.number().int(),
  toTurn: z.number().int(),
  points: z.number().int(),
  /** The pace: the meter's change per turn (its unit per turn), with its 95% interval (Theil–Sen, Sen's interval). */
  perTurn: z.number(),
  perTurnLow: z.number(),
  perTurnHigh: z.number(),
  /** The value now (the last reading). */
  value: z.number(),
  /** The next stage not yet reached; null at the top stage. */
  nextStage: ZReach.nullable(),
  /** The meter's limit: the usable requests, the time limit, the capacity. */
  limit: ZReach,
});

export const ZRunProjection = z.object({
  /** The run's last rebuilt turn, from which the projection looks ahead. */
  lastTurn: z.number().int(),
  meters: z.array(ZMeterProjection),
  /** The meter whose limit the projection reaches first, and at which turn; null when none is reached at the recent pace. */
  first: z.object({ meter: ZProjectedMeter, turn: z.number().int() }).nullable(),
});

export type TProjectedMeter = z.infer<typeof ZProjectedMeter>;
export type TReach = z.infer<typeof ZReach>;
export type TMeterProjection = z.infer<typeof ZMeterProjection>;
export type TRunProjection = z.infer<typeof ZRunProjection>;
