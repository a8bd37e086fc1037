/** numerator / denominator as an IEEE double; a denominator <= 0 makes the ratio infinite (R2). */
export function ratioOf(numerator: number, denominator: number): number {
  return denominator <= 0 ? Number.POSITIVE_INFINITY : numerator / denominator;
}

/** How many of the ascending thresholds the ratio has reached (r >= t); 0 = none (R2). */
export function stageOf(ratio: number, stages: readonly number[]): number {
  let stage = 0;
  while (stage < stages.length && ratio >= stages[stage]) stage++;
  return stage;
}

/** The ratio as shown in output: 4 decimals, null when infinite (contract §6). */
export function outputRatio(ratio: number): number | null {
  return Number.isFinite(ratio) ? Math.round(ratio * 10000) / 10000 : null;
}

/** floor(100 × numerator / denominator) computed exactly on integers; 100 when denominator <= 0. */
export function percentOf(numerator: number, denominator: number): number {
  if (denominator <= 0) return 100;
  const scaled = 100 * numerator;
  if (Number.isSafeInteger(numerator) && Math.abs(scaled) <= EXACT_LIMIT && denominator <= EXACT_LIMIT && Number.isInteger(denominator)) {
    return floorDivision(scaled, denominator);
  }
  const n = 100n * BigInt(numerator);
  const d = BigInt(denominator);
  const q = n / d; // BigInt division truncates toward zero; step down for a negative inexact quotient
  return Number(n < 0n && n % d !== 0n ? q - 1n : q);
}

/** Below 2^52, 100 × n, q × d and their differences stay exact in doubles (see floorDivision). */
const EXACT_LIMIT = 2 ** 52;

/**
 * floor(n / d) for integers |n|, d <= 2^52 (d > 0) without BigInt: the rounded double quotient is
 * off by at most one, so the remainder n − q·d (exact: |q·d| <= |n| + d <= 2^53) corrects it.
 */
function floorDivision(n: number, d: number): number {
  let q = Math.floor(n / d);
  const r = n - q * d;
  if (r < 0) q--;
  else if (r >= d) q++;
  return q + 0; // + 0 turns -0 (from n = -0) into 0, as Number(0n) is
}
