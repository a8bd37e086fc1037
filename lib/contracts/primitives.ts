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

/**
 * The largest integer the API accepts anywhere: 2^53 − 1, the last integer a JSON number parsed
 * by JavaScript still holds exactly (larger ones would be stored as another value).
 */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

/** The largest `turn`: it is stored in a 32-bit integer column. */
export const MAX_TURN = 2_147_483_647;

/** An integer reason that names the range when the value is an integer beyond it. */
function intReason(expected: string, max: number) {
  return (iss: { input?: unknown; code?: string }) =>
    iss.code === "too_big" || (typeof iss.input === "number" && Number.isInteger(iss.input) && iss.input > max)
      ? `expected ${expected} and at most ${max}, got ${show(iss.input)}`
      : reason(expected)(iss);
}

/** A count, byte size or millisecond figure: an integer >= 0 (contract §4), at most 2^53 − 1. */
export const ZCount = z.int({ error: intReason("integer >= 0", MAX_INTEGER) }).min(0, { error: reason("integer >= 0") });

/** An event's turn: an integer from 0 to 2,147,483,647. */
export const ZTurn = z
  .int({ error: intReason("integer >= 0", MAX_TURN) })
  .min(0, { error: reason("integer >= 0") })
  .max(MAX_TURN, { error: intReason("integer >= 0", MAX_TURN) });

/** An integer >= 1 (limitMs, capacityBytes, everyTurns, afterMs), at most 2^53 − 1. */
export const ZPositiveInt = z.int({ error: intReason("integer >= 1", MAX_INTEGER) }).min(1, { error: reason("integer >= 1") });

/**
 * Why a string cannot be stored, or null: PostgreSQL text and jsonb hold no U+0000, and a lone
 * UTF-16 surrogate is not Unicode (it would be stored as U+FFFD or refused).
 */
export function unstorableStringReason(text: string): string | null {
  if (!MAYBE_UNSTORABLE.test(text)) return null;
  const m = UNSTORABLE_CHAR.exec(text);
  if (!m) return null;
  const at = `at character ${m.index}`;
  if (m[0] === "\u0000") return `contains U+0000 (NUL) ${at}; strings cannot hold NUL characters`;
  return `contains a lone UTF-16 surrogate U+${m[0].charCodeAt(0).toString(16).toUpperCase()} ${at}; strings must be valid Unicode`;
}

const UNSTORABLE_CHAR = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Any U+0000 or surrogate: a string without one is storable, with no need for the exact (slower) pattern above. */
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

/** Whether a string can be stored as it is (unstorableStringReason would say null). */
export function isStorableString(text: string): boolean {
  return !MAYBE_UNSTORABLE.test(text) || !UNSTORABLE_CHAR.test(text);
}

/** A string as stored: valid Unicode without U+0000 (see unstorableStringReason). */
export function zStorableString(error: (iss: { input?: unknown }) => string) {
  return z.string({ error }).check((ctx) => {
    const problem = unstorableStringReason(ctx.value);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  });
}

export const ZText = zStorableString(reason("string"));

/** An experiment's id or an arm's name as telemetry names them (contract §10): 1–200 characters. */
export const ZExperimentName = zStorableString(reason("string of 1-200 characters"))
  .min(1, { error: reason("string of 1-200 characters") })
  .max(200, { error: reason("string of 1-200 characters") });

/** Event and run identifiers: 1–128 characters. */
export const ZIdentifier = zStorableString(reason("string of 1-128 characters"))
  .min(1, { error: reason("string of 1-128 characters") })
  .max(128, { error: reason("string of 1-128 characters") });

export const ZFlag = z.boolean({ error: reason("boolean") });

export function zEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: reason(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`) });
}

/**
 * RFC 3339 date-time with a zone (`Z` or `±hh:mm`). Returns the instant as whole milliseconds since
 * the epoch plus the fraction digits beyond the millisecond (so `.1234567` keeps its order exactly),
 * or null when the text is not such a date-time. Dates are proleptic Gregorian for every year,
 * 0000–0099 included (never Date.UTC's 1900–1999 mapping).
 *
 * A leap second (`hh:mm:60[.f]`) is the last millisecond of its minute, `hh:mm:59.999`, with `sub`
 * = `:` + its fraction digits: it sorts after every real instant of that millisecond (digits sort
 * before `:`), in its own fraction order, and before the next minute — so run order keeps the
 * order in which the events happened, and the stored instant never leaves its minute.
 */
export function parseInstant(text: string): { ms: number; sub: string } | null {
  const common = parseCommonInstantMs(text);
  if (common === common) return { ms: common, sub: "" }; // not NaN: the common form, already checked
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  const year = +y,
    month = +mo,
    day = +d,
    hour = +h,
    minute = +mi,
    second = +s;
  if (month < 1 || month > 12 || day < 1 || day > gregorianDaysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (zone !== "Z" && zone !== "z") {
    const oh = +zone.slice(1, 3),
      om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const digits = frac.slice(1);
  const minuteMs = daysSinceEpoch(year, month, day) * MS_PER_DAY + (hour * 60 + minute) * 60_000 - offsetMin * 60_000;
  if (second === 60) return { ms: minuteMs + 59_999, sub: `${LEAP_SECOND_MARK}${digits.replace(/0+$/, "")}` };
  const ms = minuteMs + second * 1000 + (digits.length ? +digits.slice(0, 3).padEnd(3, "0") : 0);
  return { ms, sub: digits.slice(3).replace(/0+$/, "") };
}

/** Marks a leap second's `sub` (see parseInstant): `:` sorts after every digit. */
export const LEAP_SECOND_MARK = ":";

/** The earliest instant the API accepts: 0001-01-01T00:00:00Z (PostgreSQL has no year 0). */
export const MIN_INSTANT_MS = -62_135_596_800_000;
/** The latest instant the API accepts: 9999-12-31T23:59:59.999Z (four-digit years, as RFC 3339). */
export const MAX_INSTANT_MS = 253_402_300_799_999;
export const INSTANT_RANGE_TEXT = "0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

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
 * (exactly 24 characters, seconds 00–59): the instant in milliseconds, or NaN when the text is not
 * exactly that form or not a valid date-time — parseInstant then lets the general parser decide
 * (leap seconds included). Reads digits without a regex and counts days arithmetically (proleptic
 * Gregorian, every year). For every text it accepts, the result equals the general parser's.
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
  const year = digitsAt(text, 0, 4),
    month = digitsAt(text, 5, 2),
    day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2),
    minute = digitsAt(text, 14, 2),
    second = digitsAt(text, 17, 2);
  const milli = digitsAt(text, 20, 3);
  // digitsAt gives -1 for a non-digit, which every range check below rejects.
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > gregorianDaysInMonth(year, month)) return NaN;
  // A leap second (60) is left to the general parser, which places it at the minute's end.
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return NaN;
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

/**
 * RFC 3339 date-time with a zone whose instant lies in MIN_INSTANT_MS … MAX_INSTANT_MS (after the
 * zone offset is applied). Leap seconds are accepted (see parseInstant).
 */
export const ZTimestamp = z.string({ error: reason("RFC 3339 date-time with a zone") }).check((ctx) => {
  const instant = parseInstant(ctx.value);
  if (instant === null) {
    ctx.issues.push({
      code: "custom",
      input: ctx.value,
      message: `expected RFC 3339 date-time with a zone (e.g. 2026-11-29T10:00:05.120Z), got ${show(ctx.value)}`,
    });
  } else if (instant.ms < MIN_INSTANT_MS || instant.ms > MAX_INSTANT_MS) {
    ctx.issues.push({
      code: "custom",
      input: ctx.value,
      message: `instant out of range: ${show(ctx.value)} is outside ${INSTANT_RANGE_TEXT} (after its zone offset)`,
    });
  }
});
