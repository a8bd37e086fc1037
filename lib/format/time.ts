import { formatNumber, type FormatOptions } from "./number";

/**
 * The time meter is always shown in minutes (the clock reports milliseconds; the run page never
 * switches to seconds or hours, so a chart, its thresholds and its tooltips read alike).
 */
export const MS_PER_MINUTE = 60_000;

/** Milliseconds → minutes, rounded to 3 decimals (60 ms): the value the timeline carries. */
export function msToMinutes(ms: number): number {
  return Math.round(ms / 60) / 1000;
}

/** The time meter's formatter, from minutes: `formatMinutes(22.5)` → "22.5 min", compact → "22.5". One decimal at most. */
export function formatMinutes(minutes: number, options: FormatOptions = {}): string {
  const text = formatNumber(minutes, 1);
  return options.compact ? text : `${text} min`;
}

/** The same formatter fed with a raw clock fact in ms: `formatMs(1_350_000)` → "22.5 min". */
export function formatMs(ms: number, options: FormatOptions = {}): string {
  return formatMinutes(ms / MS_PER_MINUTE, options);
}
