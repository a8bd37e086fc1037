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

/**
 * How far off the projection was (docs/projection.md#how-far-off): for each stage a meter reached and
 * for its limit, the first turn it got there, and what the projection made `leadTurns` turns before
 * (from the PROJECTION_TURNS turns up to then, as a live run's page showed it) said.
 */
export const ZProjectionCheck = z.object({
  meter: ZProjectedMeter,
  /** The stage reached (null: the limit) and its value in the meter's unit, as the projection saw it. */
  stage: z.number().int().nullable(),
  value: z.number(),
  /** The first turn the meter was at that stage (the limit: at or above it). */
  reachedTurn: z.number().int(),
  /** The turn the projection was made at (the last turn at least `leadTurns` before `reachedTurn`). */
  madeAtTurn: z.number().int(),
  /** The turn it projected, with its 95% interval (null: not reached at that pace; high null: not at the slowest). */
  turn: z.number().int().nullable(),
  turnLow: z.number().int().nullable(),
  turnHigh: z.number().int().nullable(),
  /** Projected minus reached, in turns (positive: the meter got there sooner than projected); null when not projected. */
  offBy: z.number().int().nullable(),
  /** Whether `reachedTurn` lies in the projected interval. */
  inside: z.boolean(),
});

export const ZRunProjectionCheck = z.object({
  /** How many turns ahead each checked projection was made. */
  leadTurns: z.number().int(),
  /** In order of `reachedTurn`; at most a meter's stages and its limit each. */
  checks: z.array(ZProjectionCheck),
  /** Checks whose reached turn lay inside the projected interval, of `checks.length`. */
  inside: z.number().int(),
});

export type TProjectedMeter = z.infer<typeof ZProjectedMeter>;
export type TReach = z.infer<typeof ZReach>;
export type TMeterProjection = z.infer<typeof ZMeterProjection>;
export type TRunProjection = z.infer<typeof ZRunProjection>;
export type TProjectionCheck = z.infer<typeof ZProjectionCheck>;
export type TRunProjectionCheck = z.infer<typeof ZRunProjectionCheck>;
