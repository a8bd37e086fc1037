import { formatNumber } from "./number";

/**
 * A meter's ratio (used / limit, unitless) as a percentage. Floors like the copy's `{percent}`
 * placeholder (contract §5), so a meter never shows a stage's percentage before it reaches it, and is
 * never capped ("120%"). `null` — the decisions' infinite ratio (limit <= 0) — shows "∞%".
 * `formatPercent(0.7778)` → "77%", `formatPercent(0.7778, { digits: 1 })` → "77.7%".
 */
export function formatPercent(ratio: number | null, options: { digits?: number } = {}): string {
  if (ratio === null || !Number.isFinite(ratio)) return "∞%";
  const scale = 10 ** (options.digits ?? 0);
  // Round away float noise (0.29 × 100 = 28.999…) before flooring.
  const floored = Math.floor(Math.round(ratio * 100 * scale * 1e6) / 1e6) / scale;
  return `${formatNumber(floored, options.digits ?? 0)}%`;
}
