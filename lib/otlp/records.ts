import type { TOtlpRecordKind } from "@/lib/contracts";
import { CUESCOPE_RUN_ID, CUESCOPE_TURN, lookup } from "./cuescope-event";
import type { Attributes, JsonValue } from "./model";

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

/** The parts of a record's data that can be large; replaced by a note when the record is over the cap. */
const BULKY = ["attributes", "events", "body", "resource"] as const;

/**
 * Bounds a record's data: over MAX_RECORD_DATA_CHARS its bulky parts (attributes, events, body,
 * resource) are replaced by `{ truncated: true, chars, keys? }` and `truncated: true` is set on the
 * record, so what is kept says what was there.
 */
export function boundData(data: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  if (JSON.stringify(data).length <= MAX_RECORD_DATA_CHARS) return data;
  const bounded: { [key: string]: JsonValue } = { ...data, truncated: true };
  for (const part of BULKY) {
    const value = data[part];
    if (value === undefined) continue;
    const chars = JSON.stringify(value).length;
    const keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).slice(0, 100) : undefined;
    bounded[part] = { truncated: true, chars, ...(keys ? { keys } : {}) };
  }
  return bounded;
}

/** A run id and turn from cuescope.run_id / cuescope.turn (most specific attribute set first). */
export function runIdOf(fallback: string, ...sets: Attributes[]): string | null {
  const value = lookup(CUESCOPE_RUN_ID, ...sets);
  if (typeof value === "string" && value.length >= 1 && value.length <= 128) return value;
  return fallback === "" ? null : fallback;
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
