import { z } from "zod";

/** Shows an offending input value in an error message, briefly. */
export function show(input: unknown): string {
  if (input === undefined) return "nothing";
  if (typeof input === "number" && !Number.isFinite(input)) return String(input);
  const text = JSON.stringify(input);
  if (text === undefined) return typeof input;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function reason(expected: string) {
  return (iss: { input?: unknown }) =>
    iss.input === undefined ? `required, expected ${expected}` : `expected ${expected}, got ${show(iss.input)}`;
}

/** A count, byte size or millisecond figure: an integer >= 0 (SPEC §4). */
export const ZCount = z.int({ error: reason("integer >= 0") }).min(0, { error: reason("integer >= 0") });

/** An integer >= 1 (limitMs, capacityBytes, everyTurns, afterMs). */
export const ZPositiveInt = z.int({ error: reason("integer >= 1") }).min(1, { error: reason("integer >= 1") });

export const ZText = z.string({ error: reason("string") });

/** Event and run identifiers: 1–128 characters. */
export const ZIdentifier = z
  .string({ error: reason("string of 1-128 characters") })
  .min(1, { error: reason("string of 1-128 characters") })
  .max(128, { error: reason("string of 1-128 characters") });

export const ZFlag = z.boolean({ error: reason("boolean") });

export function zEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: reason(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`) });
}

/**
 * RFC 3339 date-time with a zone (`Z` or `±hh:mm`). Returns the instant as whole milliseconds since
 * the epoch plus the fraction digits beyond the millisecond (so `.1234567` keeps its order exactly),
 * or null when the text is not such a date-time.
 */
export function parseInstant(text: string): { ms: number; sub: string } | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  const year = +y, month = +mo, day = +d, hour = +h, minute = +mi, second = +s;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (zone !== "Z" && zone !== "z") {
    const oh = +zone.slice(1, 3), om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const digits = frac.slice(1);
  const ms =
    Date.UTC(year, month - 1, day, hour, minute, second) -
    offsetMin * 60_000 +
    (digits.length ? +digits.slice(0, 3).padEnd(3, "0") : 0);
  return { ms, sub: digits.slice(3).replace(/0+$/, "") };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export const ZTimestamp = z
  .string({ error: reason("RFC 3339 date-time with a zone") })
  .refine((text) => parseInstant(text) !== null, {
    error: (iss) => `expected RFC 3339 date-time with a zone (e.g. 2026-11-29T10:00:05.120Z), got ${show(iss.input)}`,
  });
