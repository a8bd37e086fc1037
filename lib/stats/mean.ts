import { studentT975 } from "./quantiles";

/** Additive sums of a sample: its size, Σx and Σx². Sums of disjoint samples add field by field. */
export interface MeanSums {
  n: number;
  sum: number;
  sumSquares: number;
}

/** A sample's mean and its 95% interval; null mean without observations, null interval below two. */
export interface MeanInterval {
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
}

/**
 * The mean of a sample given by its additive sums, with a 95% t interval: mean ± t975(n − 1)·s/√n,
 * s² the sample variance (Σx² − (Σx)²/n)/(n − 1). Assumes independent observations of one
 * quantity, normal or numerous enough for the t interval to hold (the central limit theorem). The
 * variance from sums loses precision when the values are large beside their spread; a tiny negative
 * variance from rounding counts as 0. The interval is null for n < 2, the mean too for n = 0.
 */
export function meanInterval({ n, sum, sumSquares }: MeanSums): MeanInterval {
  if (n <= 0) return { n, mean: null, low: null, high: null };
  const mean = sum / n;
  if (n < 2) return { n, mean, low: null, high: null };
  const variance = Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
  const margin = studentT975(n - 1) * Math.sqrt(variance / n);
  return { n, mean, low: mean - margin, high: mean + margin };
}
