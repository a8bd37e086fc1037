import { Z975 } from "./quantiles";
import { wilsonInterval } from "./wilson";

/**
 * The difference `x1/n1 − x2/n2` of two independent proportions with its interval (default 95%)
 * by Newcombe's hybrid score method, method 10 of Newcombe (1998), "Interval estimation for the
 * difference between independent proportions: comparison of eleven methods", Stat Med 17:873–890.
 * It combines the two Wilson intervals (l1, u1) and (l2, u2), d = p1 − p2:
 * low = d − √((p1 − l1)² + (u2 − p2)²), high = d + √((u1 − p1)² + (p2 − l2)²).
 * Assumes two independent binomial samples (each trial independent, one probability per arm); it
 * stays within [−1, 1] and behaves at 0 and 1, where the Wald interval does not. Null when either
 * arm has no trials.
 */
export function newcombeDifference(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  z = Z975,
): { difference: number; low: number; high: number } | null {
  const first = wilsonInterval(x1, n1, z);
  const second = wilsonInterval(x2, n2, z);
  if (!first || !second) return null;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const difference = p1 - p2;
  return {
    difference,
    low: difference - Math.hypot(p1 - first.low, second.high - p2),
    high: difference + Math.hypot(first.high - p1, p2 - second.low),
  };
}
