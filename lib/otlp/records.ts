import { ZIdentifier, type TOtlpRecordKind } from "@/lib/contracts";
import { CUESCOPE_RUN_ID, CUESCOPE_TURN, lookup } from "./cuescope-event";
import type { Attributes, JsonValue, Scope } from "./model";

/**
 * What Cuescope keeps of OTLP data that is not a telemetry event (docs/contract/otlp.md#stored-records):
 * a model request (a GenAI span), or a span or log record kept raw. Each is stored once per project
 * under its key, attached to a run id.
 */

export interface OtlpRecordDraft {
  kind: TOtlpRecordKind;
  runId: string;
  /** Unique per project: `span:<traceId>:<spanId>` or `log:<derived id>`; a re-export is a duplicate. */
  key: string;
  /** The span's start (or the log record's time) as an RFC 3339 instant, milliseconds. */
  ts: string;
  turn: number | null;
  data: { [key: string]: JsonValue };
}

/** Largest stored `data`, as JSON text (UTF-16 code units ≈ bytes for ASCII). */
export const MAX_RECORD_DATA_CHARS = 64 * 1024;

/** Longest text field of a record outside its attributes, events and body (name, status message, severity text, model, …). */
export const MAX_TEXT_CHARS = 4 * 1024;

/** Longest scope name or version kept in each record. */
export const MAX_SCOPE_CHARS = 256;

/** Largest resource kept in each record, as JSON text; a bigger one keeps strings of at most MAX_SCOPE_CHARS, else only its keys. */
export const MAX_RESOURCE_CHARS = 4 * 1024;

/** What ends a string that was cut. */
export const TRUNCATED_TEXT = "…[truncated]";

/** The parts of a record's own content that can be large: replaced by a note, largest first, while the record is over the cap. */
const BULKY = ["attributes", "events", "body", "telemetryEventIds", "resource"] as const;

/** Own content of the record: bounded as a whole (BULKY), not string by string. */
const OWN_CONTENT = new Set<string>(["attributes", "events", "body"]);

/** Keys listed in a truncation note, each at most NOTE_KEY_CHARS long. */
const NOTE_KEYS = 50;
const NOTE_KEY_CHARS = 64;

/** Top-level parts kept as they are when even the notes do not fit (only possible with many long text fields). */
const LAST_RESORT_PART_CHARS = 256;

/** `text` cut to `max` characters plus TRUNCATED_TEXT (never between the halves of a surrogate pair); as is when not longer. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return text.slice(0, end) + TRUNCATED_TEXT;
}

/** Every string in `value` (keys included) cut to `max`; `state.cut` says whether any was. */
function cutStrings(value: JsonValue, max: number, state: { cut: boolean }): JsonValue {
  if (typeof value === "string") {
    if (value.length <= max) return value;
    state.cut = true;
    return cutText(value, max);
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max, state));
  const out: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.length > max) state.cut = true;
    Object.defineProperty(out, cutText(key, max), {
      value: cutStrings(item, max, state),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function chars(value: JsonValue): number {
  return JSON.stringify(value).length;
}

/** What replaces a part that was too big: its size and (for an object) its first keys, themselves cut short. */
function truncationNote(value: JsonValue, size: number): { [key: string]: JsonValue } {
  const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  const keys = isObject
    ? Object.keys(value)
        .slice(0, NOTE_KEYS)
        .map((key) => cutText(key, NOTE_KEY_CHARS))
    : undefined;
  return { truncated: true, chars: size, ...(keys ? { keys } : {}) };
}

/**
 * The scope and resource as kept in each record of a request (docs/contract/otlp.md#stored-records).
 * They are shared by every span or log record of their ResourceSpans/ScopeSpans, so they are bounded
 * once per request and kept small: a scope name and version of at most MAX_SCOPE_CHARS, a resource of
 * at most MAX_RESOURCE_CHARS of JSON. `truncated` says whether anything was cut.
 */
export interface SharedParts {
  scope: { [key: string]: JsonValue };
  resource: JsonValue;
  truncated: boolean;
}

export function boundShared(scope: Scope, resource: Attributes): SharedParts {
  const state = { cut: false };
  const bounded = {
    name: cutStrings(storableJson(scope.name), MAX_SCOPE_CHARS, state),
    version: cutStrings(storableJson(scope.version), MAX_SCOPE_CHARS, state),
  };
  let kept: JsonValue = storableJson(resource);
  const size = chars(kept);
  if (size > MAX_RESOURCE_CHARS) {
    state.cut = true;
    const shortened = cutStrings(kept, MAX_SCOPE_CHARS, { cut: false });
    kept = chars(shortened) <= MAX_RESOURCE_CHARS ? shortened : truncationNote(kept, size);
  }
  return { scope: bounded, resource: kept, truncated: state.cut };
}

/**
 * Bounds a record's data to MAX_RECORD_DATA_CHARS of JSON (docs/contract/otlp.md#stored-records):
 * every string outside its attributes, events and body is cut to MAX_TEXT_CHARS; then, while the
 * whole is over the cap, its largest bulky part (attributes, events, body, telemetryEventIds,
 * resource) is replaced by `{ truncated: true, chars, keys? }`; if even that is not enough, every
 * top-level part over LAST_RESORT_PART_CHARS is. Whenever anything was cut the record says
 * `truncated: true`, so what is kept says what was there. The result is always within the cap.
 */
export function boundData(data: { [key: string]: JsonValue }, alreadyTruncated = false): { [key: string]: JsonValue } {
  const state = { cut: alreadyTruncated };
  const bounded: { [key: string]: JsonValue } = {};
  for (const [key, value] of Object.entries(data)) {
    bounded[key] = OWN_CONTENT.has(key) ? value : cutStrings(value, MAX_TEXT_CHARS, state);
  }
  if (state.cut) bounded.truncated = true;
  let total = chars(bounded);
  if (total <= MAX_RECORD_DATA_CHARS) return bounded;

  bounded.truncated = true;
  total = chars(bounded);
  const parts = BULKY.filter((part) => bounded[part] !== undefined)
    .map((part) => ({ part, size: chars(bounded[part]) }))
    .sort((a, b) => b.size - a.size);
  for (const { part, size } of parts) {
    if (total <= MAX_RECORD_DATA_CHARS) break;
    const note = truncationNote(bounded[part], size);
    total += chars(note) - size;
    bounded[part] = note;
  }
  if (total <= MAX_RECORD_DATA_CHARS) return bounded;

  for (const [key, value] of Object.entries(bounded)) {
    const size = chars(value);
    if (size > LAST_RESORT_PART_CHARS) bounded[key] = { truncated: true, chars: size };
  }
  return bounded;
}

/** The run a record is kept with, or why its cuescope.run_id cannot be one. */
export type RunIdOrProblem = { ok: true; runId: string | null } | { ok: false; message: string };

/**
 * The run a record is kept with (docs/contract/otlp.md#everything-else): cuescope.run_id from the
 * most specific attribute set that has it, which must be a valid run id exactly as a telemetry
 * event's `runId` (1–128 characters, no U+0000, no lone surrogate); without one, `fallback` (the
 * trace id), or null when that is "" too. An invalid cuescope.run_id is a problem, not a fallback.
 */
export function runIdOf(fallback: string, ...sets: Attributes[]): RunIdOrProblem {
  const value = lookup(CUESCOPE_RUN_ID, ...sets);
  if (value === undefined) return { ok: true, runId: fallback === "" ? null : fallback };
  const parsed = ZIdentifier.safeParse(value);
  if (!parsed.success) return { ok: false, message: `${CUESCOPE_RUN_ID}: ${parsed.error.issues[0].message}` };
  return { ok: true, runId: parsed.data };
}

export function turnOf(...sets: Attributes[]): number | null {
  const value = lookup(CUESCOPE_TURN, ...sets);
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647 ? value : null;
}

/**
 * Makes text safe for PostgreSQL `jsonb`: U+0000 and lone UTF-16 surrogates (which it cannot store)
 * become U+FFFD, in values and keys alike. Recursion is bounded: decoded values nest at most
 * MAX_VALUE_DEPTH levels (./model.ts).
 */
export function storableJson(value: JsonValue): JsonValue {
  if (typeof value === "string") return clean(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(storableJson);
  const out: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, clean(key), { value: storableJson(item), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function clean(text: string): string {
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}
