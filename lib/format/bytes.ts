import { formatNumber, type FormatOptions } from "./number";

const PREFIXES = ["kB", "MB", "GB", "TB"] as const;

/**
 * The context meter's formatter (unit: bytes of the final request; also reminder costs and free
 * bytes). Long form is exact: `formatBytes(181220)` → "181,220 B" (what tooltips, the turn panel
 * and "needed vs free" use, since one byte decides a fit). Compact form is for axis ticks and
 * totals: SI decimal prefixes (1 kB = 1,000 B, as byte capacities are configured in plain
 * decimals), 3 significant digits: "181 kB", "18.1 kB", "1.2 MB", "999 B". Never KiB.
 */
export function formatBytes(n: number, options: FormatOptions = {}): string {
  if (!options.compact || !Number.isFinite(n) || Math.abs(n) < 1000) return `${formatNumber(n, 0)} B`;
  let scaled = Math.abs(n);
  let prefix = -1;
  // Pick the prefix after rounding, so 999,999 B reads "1 MB" rather than "1,000 kB".
  while (prefix < PREFIXES.length - 1 && roundSignificant(scaled) >= 1000) {
    scaled /= 1000;
    prefix++;
  }
  const sign = n < 0 ? "-" : "";
  return prefix < 0
    ? `${sign}${formatNumber(roundSignificant(scaled), 0)} B`
    : `${sign}${formatNumber(roundSignificant(scaled), 2)} ${PREFIXES[prefix]}`;
}

function roundSignificant(x: number): number {
  if (x === 0) return 0;
  const digits = 3 - Math.floor(Math.log10(x)) - 1;
  const factor = 10 ** Math.max(0, digits);
  return Math.round(x * factor) / factor;
}
