/** numerator / denominator as an IEEE double; a denominator <= 0 makes the ratio infinite (SPEC R2). */
export function ratioOf(numerator: number, denominator: number): number {
  return denominator <= 0 ? Number.POSITIVE_INFINITY : numerator / denominator;
}

/** How many of the ascending thresholds the ratio has reached (r >= t); 0 = none (SPEC R2). */
export function stageOf(ratio: number, stages: readonly number[]): number {
  let stage = 0;
  while (stage < stages.length && ratio >= stages[stage]) stage++;
  return stage;
}

/** The ratio as shown in output: 4 decimals, null when infinite (SPEC §6). */
export function outputRatio(ratio: number): number | null {
  return Number.isFinite(ratio) ? Math.round(ratio * 10000) / 10000 : null;
}

/** floor(100 × numerator / denominator) computed exactly on integers; 100 when denominator <= 0. */
export function percentOf(numerator: number, denominator: number): number {
  if (denominator <= 0) return 100;
  const n = 100n * BigInt(numerator);
  const d = BigInt(denominator);
  const q = n / d; // BigInt division truncates toward zero; step down for a negative inexact quotient
  return Number(n < 0n && n % d !== 0n ? q - 1n : q);
}
