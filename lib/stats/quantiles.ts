/** The standard normal's 0.975 quantile: the z of a two-sided 95% interval. */
export const Z975 = 1.959963984540054;

/**
 * Student's t 0.975 quantile for 1–30 degrees of freedom, to 6 decimals (index 0 is df 1). The
 * printed tables' 3-decimal values are these rounded: 12.706, 4.303, 3.182, 2.776, 2.571, …, 2.042.
 */
const T975 = [
  12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139, 2.200985, 2.178813, 2.160369,
  2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
  2.048407, 2.04523, 2.042272,
];

/**
 * The 0.975 quantile of Student's t with `df` degrees of freedom: the multiplier of a two-sided
 * 95% interval around a mean estimated from `df + 1` independent observations of a normal
 * quantity. For df 1–30 it is read from an exact table (a fractional df below 30 is rounded down,
 * which widens the interval); beyond, the Cornish–Fisher expansion in 1/df to the fourth term
 * (Abramowitz & Stegun 26.7.5), within 1e-7 of the exact value for every df above 30. Infinite
 * df gives the normal's 1.96. Throws a RangeError for df below 1 or NaN.
 */
export function studentT975(df: number): number {
  if (!(df >= 1)) throw new RangeError(`studentT975: degrees of freedom must be at least 1, got ${df}`);
  if (df <= 30) return T975[Math.floor(df) - 1];
  const z = Z975;
  const z2 = z * z;
  const g1 = (z * (z2 + 1)) / 4;
  const g2 = (z * ((5 * z2 + 16) * z2 + 3)) / 96;
  const g3 = (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / 384;
  const g4 = (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / 92160;
  return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/**
 * The standard normal's quantile at probability `p` (0 < p < 1): the z with P(Z <= z) = p, by
 * Acklam's rational approximation (relative error below 1.2e-9). Used for Bonferroni-adjusted
 * levels: a two-sided interval at 1 − α/m takes normalQuantile(1 − α / (2m)).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}
