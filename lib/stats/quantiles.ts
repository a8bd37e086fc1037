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
