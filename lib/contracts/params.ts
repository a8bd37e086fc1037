import { z } from "zod";
import { MAX_INSTANT_MS, MIN_INSTANT_MS, parseInstant } from "./primitives";

/**
 * Building blocks of the read APIs' query and path parameters (and of the pages that read the same
 * URLs). Every value arrives as text; each block accepts exactly what the database can be asked
 * about and names what it expected and what it got, so a bad parameter is a 400, never a 500.
 */

/** Shows a parameter's value in a message, briefly. */
export function showParam(value: unknown): string {
  if (typeof value !== "string") return value === undefined ? "nothing" : typeof value;
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 56)}..."` : text;
}

/** The largest integer a PostgreSQL `integer` column (turns, counts) holds. */
export const MAX_INT4 = 2_147_483_647;

/** NUL (PostgreSQL text cannot hold it) or a lone UTF-16 surrogate (not a character). */
const UNSTORABLE = /\u0000|\p{Surrogate}/u;

/** Free text of `min`–`max` characters that PostgreSQL can compare (no NUL, no lone surrogate). */
export function zTextParam(options: { min?: number; max: number; what?: string }) {
  const min = options.min ?? 1;
  const what = options.what ?? `text of ${min}-${options.max} characters`;
  return z.string({ error: (iss) => `expected ${what}, got ${showParam(iss.input)}` }).check((ctx) => {
    const value = ctx.value;
    if (value.length < min || value.length > options.max) {
      ctx.issues.push({ code: "custom", input: value, message: `expected ${what}, got ${value.length} characters` });
    } else if (UNSTORABLE.test(value)) {
      ctx.issues.push({
        code: "custom",
        input: value,
        message: `expected ${what} without NUL characters or lone surrogates, got ${showParam(value)}`,
      });
    }
  });
}

/**
 * An agent or model name as a filter: run.started puts no length limit on them, so neither does
 * the filter beyond a sanity bound (the URL's length bounds it anyway).
 */
export const ZNameParam = zTextParam({ max: 10_000 });

/** A run id's limit, in characters (contract §4). */
export const MAX_RUN_ID_CHARS = 128;

/** A run id (contract §4: 1–128 characters) as a filter or path parameter. */
export const ZRunIdParam = zTextParam({ max: MAX_RUN_ID_CHARS, what: `a run id of 1-${MAX_RUN_ID_CHARS} characters` });

/** A stored record's id (copy and policy versions, replay jobs): generated ids are short. */
export const ZRecordIdParam = zTextParam({ max: 128, what: "an id of 1-128 characters" });

/**
 * A decimal integer from `min` to `max` written in plain digits (no sign, exponent, hex, spaces
 * or fraction: `1e3`, `0x10` and ` ` are not turns). Server code may pass a number (`{ limit: 1 }`).
 */
export function zIntParam(min: number, max: number) {
  const expected = `an integer from ${min} to ${max}`;
  const digits = z
    .string({ error: (iss) => `expected ${expected}, got ${showParam(iss.input)}` })
    .check((ctx) => {
      const ok = /^\d{1,16}$/.test(ctx.value) && Number(ctx.value) >= min && Number(ctx.value) <= max;
      if (!ok) ctx.issues.push({ code: "custom", input: ctx.value, message: `expected ${expected}, got ${showParam(ctx.value)}` });
    })
    .transform(Number);
  return z.union([z.number().int().min(min).max(max), digits], { error: (iss) => `expected ${expected}, got ${showParam(iss.input)}` });
}

/** A turn number: an integer the database's turn column holds. */
export const ZTurnParam = zIntParam(0, MAX_INT4);

/** Earliest and latest instants a date filter may name: the range the API stores (see primitives). */
export const MIN_QUERY_INSTANT = new Date(MIN_INSTANT_MS).toISOString();
export const MAX_QUERY_INSTANT = new Date(MAX_INSTANT_MS).toISOString();

/** A date-time written without seconds (`2026-11-29T10:00Z`), which a filter link may carry. */
const WITHOUT_SECONDS = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2})([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The instant a date filter names, in milliseconds since the epoch, or null when the text is not
 * an RFC 3339 date-time with a zone: the events' own parser (parseInstant: years 0000–0099 are
 * those years, a leap second is its minute's last millisecond), seconds optional.
 */
export function parseQueryInstant(text: string): number | null {
  return parseInstant(text.replace(WITHOUT_SECONDS, "$1:00$2"))?.ms ?? null;
}

/**
 * A date filter: an RFC 3339 date-time with a zone, between MIN_QUERY_INSTANT and
 * MAX_QUERY_INSTANT. Kept as written (readers convert it with `queryInstantDate`).
 */
export const ZInstantParam = z
  .string({ error: (iss) => `expected an RFC 3339 date-time with a zone, got ${showParam(iss.input)}` })
  .check((ctx) => {
    const ms = parseQueryInstant(ctx.value);
    if (ms === null) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `expected an RFC 3339 date-time with a zone (e.g. 2026-11-29T10:00:00Z), got ${showParam(ctx.value)}`,
      });
    } else if (ms < MIN_INSTANT_MS || ms > MAX_INSTANT_MS) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `expected a date-time from ${MIN_QUERY_INSTANT} to ${MAX_QUERY_INSTANT}, got ${showParam(ctx.value)}`,
      });
    }
  });

/** The Date of a date filter that passed ZInstantParam. */
export function queryInstantDate(text: string): Date {
  const ms = parseQueryInstant(text);
  if (ms === null) throw new Error(`not a date-time: ${JSON.stringify(text)}`);
  return new Date(ms);
}

/** An opaque page cursor as given back (its content is checked by the reader that made it). */
export const ZCursorParam = zTextParam({ max: 1024, what: "the nextCursor of a previous page" });

/** Path parameters of the version and replay routes. */
export const ZIdPathParams = z.object({ id: ZRecordIdParam });

/** A yes/no URL flag: `1` or `true` turns it on; `0`, `false` or leaving it out leaves it off. */
export const ZFlagParam = z
  .enum(["1", "0", "true", "false"], { error: "expected 1, 0, true or false" })
  .transform((value) => value === "1" || value === "true");
