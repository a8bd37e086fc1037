/** The scale bench's options: data sizes ("100k,1M"), their labels and defaults per database. Pure. */

const SUFFIX: Record<string, number> = { "": 1, k: 1_000, m: 1_000_000 };

/** "20000", "20k", "1.5M" → a whole number of events (at least 1), or an error naming the text. */
export function parseCount(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim());
  const value = match ? Math.round(Number(match[1]) * SUFFIX[match[2].toLowerCase()]) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`not a count of events: ${JSON.stringify(text)} (e.g. 20000, 20k, 1M)`);
  return value;
}

/** `--sizes small,large`: two counts, the first smaller than the second. */
export function parseSizes(text: string): [number, number] {
  const parts = text.split(",").map((part) => part.trim());
  if (parts.length !== 2) throw new Error(`--sizes needs two counts, small and large (e.g. 100k,1M), got ${JSON.stringify(text)}`);
  const [small, large] = parts.map(parseCount);
  if (small >= large) throw new Error(`--sizes: the first size must be smaller than the second, got ${JSON.stringify(text)}`);
  return [small, large];
}

/** 20000 → "20k", 1000000 → "1M", 1500 → "1.5k", 999 → "999": how sizes are printed. */
export function countLabel(count: number): string {
  const [unit, suffix] = count >= 1_000_000 ? [1_000_000, "M"] : count >= 1_000 ? [1_000, "k"] : [1, ""];
  return `${Number((count / unit).toFixed(2))}${suffix}`;
}

/** The default sizes: the 100k and 1M on PostgreSQL; 20k and 200k on the embedded database (a few minutes). */
export function defaultSizes(kind: "postgres" | "pglite"): [number, number] {
  return kind === "postgres" ? [100_000, 1_000_000] : [20_000, 200_000];
}
