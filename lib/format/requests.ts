import { formatNumber, withNoun, type FormatOptions } from "./number";

/**
 * The requests meter's formatter (unit: model requests, a count). Counts are integers; threshold
 * lines (stage ratio × usable) may fall between two counts and show one decimal.
 * `formatRequests(41)` → "41 requests", `formatRequests(1)` → "1 request", compact → "41".
 */
export function formatRequests(n: number, options: FormatOptions = {}): string {
  const text = formatNumber(n, 1);
  return options.compact ? text : withNoun(text, "request", "requests");
}
