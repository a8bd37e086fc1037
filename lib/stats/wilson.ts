import { Z975 } from "./quantiles";

/**
 * The Wilson score interval for a proportion `successes / trials` (default 95%): sensible for
 * small counts and rates near 0 or 1, unlike the normal approximation. It assumes the trials are
 * independent with one common probability of success. Null without trials.
 */
export function wilsonInterval(successes: number, trials: number, z = Z975): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - margin), high: Math.min(1, centre + margin) };
}
