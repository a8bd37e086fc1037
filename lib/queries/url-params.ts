import { z } from "zod";
import { problemsFrom, type TProblem } from "@/lib/contracts";

/** Time range presets shared by the list pages: a sliding window that ends now. */
export const TIME_RANGES = {
  "24h": { label: "Last 24 hours", ms: 24 * 3_600_000 },
  "7d": { label: "Last 7 days", ms: 7 * 24 * 3_600_000 },
  "30d": { label: "Last 30 days", ms: 30 * 24 * 3_600_000 },
} as const;
export type TimeRange = keyof typeof TIME_RANGES;
const RANGE_NAMES = Object.keys(TIME_RANGES) as [TimeRange, ...TimeRange[]];
const ZTimeRange = z.enum(RANGE_NAMES, { error: `expected one of ${RANGE_NAMES.join(", ")}` });

export type SearchInput = URLSearchParams | Record<string, string | string[] | undefined>;

/** The start of a preset window ending at `now` (ms), floored to the minute so query keys stay stable. */
export function rangeStart(range: TimeRange, now: number): string {
  const minute = Math.floor(now / 60_000) * 60_000;
  return new Date(minute - TIME_RANGES[range].ms).toISOString();
}

/** A `range` URL value as a preset, or a problem naming the parameter. */
export function readTimeRange(value: string | undefined): { range?: TimeRange; problems: TProblem[] } {
  if (value === undefined) return { problems: [] };
  const parsed = ZTimeRange.safeParse(value);
  return parsed.success ? { range: parsed.data, problems: [] } : { problems: problemsFrom(parsed.error, ["range"]) };
}

/**
 * The named URL parameters: a repeated one's last value wins (as the API reads it); blank means
 * "not set". `trim` says which values lose surrounding white space.
 */
export function readParams<P extends string>(
  input: SearchInput,
  names: readonly P[],
  trim: (name: P) => boolean = () => true,
): Partial<Record<P, string>> {
  const out: Partial<Record<P, string>> = {};
  for (const name of names) {
    const raw = input instanceof URLSearchParams ? input.getAll(name) : input[name];
    const value = Array.isArray(raw) ? raw.at(-1) : raw;
    if (value !== undefined && value.trim() !== "") out[name] = trim(name) ? value.trim() : value;
  }
  return out;
}

export function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
