/**
 * The one number layout every unit formatter uses: locale "en-US" passed explicitly (so server,
 * browser and tests print the same text), thousands grouped with ",", "." as decimal point, a
 * plain "-" for negatives.
 */
const LOCALE = "en-US";

const byDigits = new Map<number, Intl.NumberFormat>();

/** `n` with at most `maxFractionDigits` decimals (rounded half away from zero, trailing zeros dropped). */
export function formatNumber(n: number, maxFractionDigits = 0): string {
  if (Number.isNaN(n)) return "–";
  if (!Number.isFinite(n)) return n > 0 ? "∞" : "-∞";
  let format = byDigits.get(maxFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: maxFractionDigits, useGrouping: true });
    byDigits.set(maxFractionDigits, format);
  }
  const text = format.format(n);
  return text === "-0" ? "0" : text;
}

/** Style of a formatted value: `long` names the unit ("41 requests"); `compact` is for axis ticks ("41"). */
export interface FormatOptions {
  compact?: boolean;
}

/** "1 request" / "2 requests": English plural by the shown value. */
export function withNoun(text: string, singular: string, plural: string): string {
  return `${text} ${text === "1" ? singular : plural}`;
}
