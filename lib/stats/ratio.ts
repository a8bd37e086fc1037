import { studentT975, Z975 } from "./quantiles";

/**
 * Additive sums over n independent units (runs) of two per-unit counts X and Y: ΣX, ΣY, ΣX², ΣY²,
 * ΣXY. Sums of disjoint sets of units add field by field.
 */
export interface RatioSums {
  n: number;
  sumX: number;
  sumY: number;
  sumXX: number;
  sumYY: number;
  sumXY: number;
}

/** A ratio ΣX/ΣY with its 95% interval and the sums it came from. */
export interface RatioInterval {
  /** ΣX/ΣY; null when ΣY = 0. */
  ratio: number | null;
  /** Null when the ratio is, or n < 2. */
  low: number | null;
  high: number | null;
  n: number;
  sumX: number;
  sumY: number;
}

/**
 * The delta method's variance of R = ΣX/ΣY over the units (null when ΣY = 0 or n < 2):
 * (1/n)·(s_x²/ȳ² − 2·x̄·s_xy/ȳ³ + x̄²·s_y²/ȳ⁴), sample (n − 1) variances and covariance. It equals
 * the sample variance of X − R·Y over n·ȳ², so it is never negative; rounding below 0 counts as 0.
 */
function ratioVariance(a: RatioSums): number | null {
  const { n, sumX, sumY } = a;
  if (sumY === 0 || n < 2) return null;
  const xBar = sumX / n;
  const yBar = sumY / n;
  const sxx = (a.sumXX - n * xBar * xBar) / (n - 1);
  const syy = (a.sumYY - n * yBar * yBar) / (n - 1);
  const sxy = (a.sumXY - n * xBar * yBar) / (n - 1);
  const y2 = yBar * yBar;
  return Math.max(0, (sxx / y2 - (2 * xBar * sxy) / (y2 * yBar) + (xBar * xBar * syy) / (y2 * y2)) / n);
}

/**
 * A ratio metric R = ΣX/ΣY over n independent units, X and Y per-unit counts (X = a run's followed
 * reminders, Y = its delivered reminders), with a 95% interval R ± t975(n − 1)·√Var(R), Var(R) by the
 * delta method (`ratioVariance`). The unit is the run, not the reminder: reminders of one run are
 * not independent, and this (cluster-robust) variance does not assume they are; only the runs are
 * assumed independent. A first-order approximation, fair with tens of runs and poor with a handful;
 * the interval is symmetric and may leave the ratio's natural range (a rate below 0 or above 1).
 * The ratio is null when ΣY = 0; the interval also when n < 2.
 */
export function ratioInterval(a: RatioSums): RatioInterval {
  const { n, sumX, sumY } = a;
  const ratio = sumY === 0 ? null : sumX / sumY;
  const variance = ratioVariance(a);
  if (ratio === null || variance === null) return { ratio, low: null, high: null, n, sumX, sumY };
  const margin = studentT975(n - 1) * Math.sqrt(variance);
  return { ratio, low: ratio - margin, high: ratio + margin, n, sumX, sumY };
}

/**
 * The difference R_a − R_b of two independent arms' ratio metrics (`ratioInterval`, e.g. two copy
 * versions' follow-up rates, each over its own runs), with an interval (default 95%) from the summed
 * delta-method variances: difference ± z·√(Var(R_a) + Var(R_b)). It uses the normal z, not a t
 * quantile (the two arms' degrees of freedom do not combine simply), so it is a large-sample
 * interval: too narrow when either arm has few runs. Assumes the arms share no run. The difference
 * is null when either ratio is (ΣY = 0); the interval also when either arm has fewer than 2 runs.
 */
export function ratioDifference(
  a: RatioSums,
  b: RatioSums,
  z = Z975,
): { difference: number | null; low: number | null; high: number | null } {
  if (a.sumY === 0 || b.sumY === 0) return { difference: null, low: null, high: null };
  const difference = a.sumX / a.sumY - b.sumX / b.sumY;
  const varianceA = ratioVariance(a);
  const varianceB = ratioVariance(b);
  if (varianceA === null || varianceB === null) return { difference, low: null, high: null };
  const margin = z * Math.sqrt(varianceA + varianceB);
  return { difference, low: difference - margin, high: difference + margin };
}
