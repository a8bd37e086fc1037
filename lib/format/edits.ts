import { formatNumber, withNoun, type FormatOptions } from "./number";

/**
 * The edit-quota meter's formatter (unit: edits of one block, a count). Threshold lines
 * (stage ratio × the block's limit) may show one decimal.
 * `formatEdits(3)` → "3 edits", `formatEdits(1)` → "1 edit", compact → "3".
 */
export function formatEdits(n: number, options: FormatOptions = {}): string {
  const text = formatNumber(n, 1);
  return options.compact ? text : withNoun(text, "edit", "edits");
}
