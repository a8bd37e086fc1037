import { Z975 } from "./quantiles";

/** A robust straight-line fit y ≈ intercept + slope × x, with a confidence interval for the slope. */
export interface RobustFit {
  slope: number;
  intercept: number;
  /** The slope's interval (95% by default): Sen's, from the ranks of the pairwise slopes. */
  slopeLow: number;
  slopeHigh: number;
  /** Points fitted. */
  n: number;
}

/**
 * The Theil–Sen estimator (Sen 1968): the slope is the median of the slopes of every pair of points
 * with different x, the intercept the median of y − slope × x; one outlier in a few (a compaction's
 * drop, a burst of retries) barely moves it, where least squares would follow it. The slope's
 * interval takes the pairwise slopes at ranks (N − C)/2 and (N + C)/2 + 1 of the N sorted ones, with
 * C = z · √(n(n − 1)(2n + 5) / 18), the normal approximation to Kendall's S (no ties correction).
 * Null with fewer than 3 points or fewer than 2 distinct x. O(n²) pairs: for a few dozen points.
 */
export function theilSen(xs: readonly number[], ys: readonly number[], z: number = Z975): RobustFit | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return null;
  const slopes: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (xs[j] !== xs[i]) slopes.push((ys[j] - ys[i]) / (xs[j] - xs[i]));
  if (slopes.length === 0) return null;
  slopes.sort((a, b) => a - b);
  const slope = median(slopes);
  const intercept = median(Array.from({ length: n }, (_, i) => ys[i] - slope * xs[i]).sort((a, b) => a - b));
  const N = slopes.length;
  const C = z * Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18);
  const lowRank = Math.max(1, Math.floor((N - C) / 2));
  const highRank = Math.min(N, Math.ceil((N + C) / 2) + 1);
  return { slope, intercept, slopeLow: slopes[lowRank - 1], slopeHigh: slopes[highRank - 1], n };
}

/** The median of ascending numbers. */
function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
