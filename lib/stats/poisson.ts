import { Z975 } from "./quantiles";

/**
 * Exact (Garwood) 95% limits of a Poisson mean for the counts 0–9, to 6 decimals (index = count):
 * where Byar's approximation is poor (its lower limit is 48% low at a count of 1, 7% at 2).
 */
const GARWOOD_95 = [
  [0, 3.688879],
  [0.025318, 5.571643],
  [0.242209, 7.224688],
  [0.618672, 8.767273],
  [1.089865, 10.241589],
  [1.623486, 11.668332],
  [2.201894, 13.059474],
  [2.814363, 14.422675],
  [3.453832, 15.763189],
  [4.115373, 17.084803],
] as const;

/** The 95% limits of a Poisson mean observed as `count`: exact below 10, Byar's approximation from 10. */
function poissonLimits(count: number): { low: number; high: number } {
  if (count < GARWOOD_95.length) {
    const [low, high] = GARWOOD_95[count];
    return { low, high };
  }
  const x = count;
  const x1 = count + 1;
  return {
    low: x * (1 - 1 / (9 * x) - Z975 / (3 * Math.sqrt(x))) ** 3,
    high: x1 * (1 - 1 / (9 * x1) + Z975 / (3 * Math.sqrt(x1))) ** 3,
  };
}

/**
 * An event rate `count / exposure · per` (e.g. findings per 1,000 turns: count findings, exposure
 * turns, per 1000) with the 95% interval of a Poisson count scaled the same way. The limits are
 * Byar's approximation of the exact (Garwood, chi-square) interval, lower x·(1 − 1/(9x) − z/(3√x))³
 * and upper (x+1)·(1 − 1/(9(x+1)) + z/(3√(x+1)))³, within 0.2% of the exact limits from a count of 10;
 * below 10 the exact limits themselves (a count of 0 has lower 0 and upper −ln 0.025 ≈ 3.689).
 * Assumes the events occur independently at one constant rate per unit of exposure (a Poisson
 * process): findings that cluster in some runs make the interval too narrow. `count` is a whole
 * number ≥ 0 (else a RangeError); null when the exposure is not positive.
 */
export function poissonRateInterval(count: number, exposure: number, per = 1): { rate: number; low: number; high: number } | null {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`poissonRateInterval: count must be a whole number ≥ 0, got ${count}`);
  if (!(exposure > 0)) return null;
  const scale = per / exposure;
  const { low, high } = poissonLimits(count);
  return { rate: count * scale, low: low * scale, high: high * scale };
}
