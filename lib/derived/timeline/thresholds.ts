import type { TThreshold } from "@/lib/contracts";

/** Rounds away float noise (0.9 × 54 = 48.6000…01) to 3 decimals. */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * A meter's stage thresholds (unitless fractions) as lines in the meter's unit: stage k is reached
 * when value / denominator >= stages[k-1], i.e. value >= stages[k-1] × denominator. For the time
 * meter the denominator is already in minutes.
 */
export function thresholdsFor(stages: readonly number[], denominator: number): TThreshold[] {
  return stages.map((ratio, i) => ({ stage: i + 1, ratio, value: round3(ratio * denominator) }));
}
