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
  const common = parseCommonInstantMs(text);
  if (common === common) return { ms: common, sub: "" }; // not NaN: the common form, already checked
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

const DIGIT_0 = 0x30;
const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const UPPER_T = 0x54;
const UPPER_Z = 0x5a;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MS_PER_DAY = 86_400_000;

/**
 * Fast path of parseInstant for the form agents nearly always send, `YYYY-MM-DDTHH:MM:SS.sssZ`
 * (exactly 24 characters, year 0100 or later): the instant in milliseconds, or NaN when the text
 * is not exactly that form or not a valid date-time — parseInstant then lets the general parser
 * decide. Reads digits without a regex and counts days arithmetically (proleptic Gregorian, as
 * Date.UTC does from year 100 on; years 0–99 are left to the general parser, since Date.UTC maps
 * them to 1900–1999). For every text it accepts, the result equals the general parser's.
 */
export function parseCommonInstantMs(text: string): number {
  if (
    text.length !== 24 ||
    text.charCodeAt(4) !== DASH ||
    text.charCodeAt(7) !== DASH ||
    text.charCodeAt(10) !== UPPER_T ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON ||
    text.charCodeAt(19) !== DOT ||
    text.charCodeAt(23) !== UPPER_Z
  ) {
    return NaN;
  }
  const year = digitsAt(text, 0, 4), month = digitsAt(text, 5, 2), day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2), minute = digitsAt(text, 14, 2), second = digitsAt(text, 17, 2);
  const milli = digitsAt(text, 20, 3);
  // digitsAt gives -1 for a non-digit, which every range check below rejects.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > gregorianDaysInMonth(year, month)) return NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60 || milli < 0) return NaN;
  // A leap second (60) counts as the next minute's first second, as Date.UTC counts it.
  return daysSinceEpoch(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + milli;
}

/** The decimal number written by `count` digits at `at`, or -1 if one of them is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function gregorianDaysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1];
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** Days from 1970-01-01 to a proleptic Gregorian date with year >= 1 (H. Hinnant's days_from_civil). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export const ZTimestamp = z
  .string({ error: reason("RFC 3339 date-time with a zone") })
  .refine((text) => parseInstant(text) !== null, {
    error: (iss) => `expected RFC 3339 date-time with a zone (e.g. 2026-11-29T10:00:05.120Z), got ${show(iss.input)}`,
  });
