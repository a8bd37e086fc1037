import type { Attributes, JsonValue } from "./model";
import { nanosToIso } from "./time";

/**
 * The cuescope.* attribute namespace (docs/contract/otlp.md#cuescope-attributes): a span event or
 * log record whose attributes hold `cuescope.type` is one telemetry v1 event.
 */
export const CUESCOPE_TYPE = "cuescope.type";
export const CUESCOPE_RUN_ID = "cuescope.run_id";
export const CUESCOPE_TURN = "cuescope.turn";
export const CUESCOPE_ID = "cuescope.id";
export const CUESCOPE_BODY = "cuescope.body";
const BODY_FIELD_PREFIX = "cuescope.body.";
/** `cuescope.body.contextParts.<part>`: one part of a request.final's contextParts (contract §11). */
const CONTEXT_PART_PREFIX = "cuescope.body.contextParts.";

/** Sets an own property, whatever its name (`__proto__` included). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A short label for an attribute value in a message: a string as itself, anything else as JSON
 * (never String(): a key-value list may hold a key named "toString"), at most `max` characters.
 */
export function valueLabel(value: JsonValue | undefined, max: number): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "nothing");
  return text.slice(0, max);
}

export function isCuescopeEvent(attributes: Attributes): boolean {
  return Object.hasOwn(attributes, CUESCOPE_TYPE);
}

/** Whether every attribute is in the cuescope.* namespace (a span that only carries context). */
export function onlyCuescopeAttributes(attributes: Attributes): boolean {
  return Object.keys(attributes).every((key) => key.startsWith("cuescope."));
}

/** The first of the attribute sets (most specific first) that has `key`. */
export function lookup(key: string, ...sets: Attributes[]): JsonValue | undefined {
  for (const set of sets) if (Object.hasOwn(set, key)) return set[key];
  return undefined;
}

/** Where a telemetry event's fields come from besides the record's own attributes. */
export interface EventContext {
  /** Attribute sets consulted for cuescope.run_id after the record's own: its span's, then the resource's. */
  runIdFrom: Attributes[];
  /** The record's time in nanoseconds (0: not set; the event then has no `ts` and is refused for it). */
  timeUnixNano: bigint;
  /** The id when the record has no cuescope.id (asked for only then: a log record's fingerprints its whole content). */
  derivedId: () => string;
}

export type EventOrProblem = { ok: true; event: Record<string, unknown> } | { ok: false; message: string };

/**
 * The telemetry event a record's cuescope.* attributes describe, unvalidated: the ingest path
 * (lib/server/ingest/ingest-batch.ts) validates it exactly as it validates a posted event. Only a
 * `cuescope.body` that is not a JSON object is refused here.
 */
export function telemetryEvent(attributes: Attributes, context: EventContext): EventOrProblem {
  let body: Record<string, unknown> = {};
  if (Object.hasOwn(attributes, CUESCOPE_BODY)) {
    const text = attributes[CUESCOPE_BODY];
    if (typeof text !== "string") return { ok: false, message: `${CUESCOPE_BODY}: expected the body as JSON text (a string)` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { ok: false, message: `${CUESCOPE_BODY}: not valid JSON: ${(error as Error).message}` };
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { ok: false, message: `${CUESCOPE_BODY}: expected a JSON object` };
    }
    body = { ...parsed };
  }
  const parts: [string, JsonValue][] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith(CONTEXT_PART_PREFIX) && key.length > CONTEXT_PART_PREFIX.length)
      parts.push([key.slice(CONTEXT_PART_PREFIX.length), value]);
    else if (key.startsWith(BODY_FIELD_PREFIX) && key.length > BODY_FIELD_PREFIX.length)
      setOwn(body, key.slice(BODY_FIELD_PREFIX.length), value);
  }
  if (parts.length > 0) {
    // Contract §11: flat part attributes set parts of the body's contextParts, over any given whole.
    const given = body.contextParts;
    const contextParts: Record<string, unknown> = typeof given === "object" && given !== null && !Array.isArray(given) ? { ...given } : {};
    for (const [part, value] of parts) setOwn(contextParts, part, value);
    setOwn(body, "contextParts", contextParts);
  }
  const event: Record<string, unknown> = {
    id: lookup(CUESCOPE_ID, attributes) ?? context.derivedId(),
    runId: lookup(CUESCOPE_RUN_ID, attributes, ...context.runIdFrom),
    type: attributes[CUESCOPE_TYPE],
    ts: context.timeUnixNano === 0n ? undefined : nanosToIso(context.timeUnixNano),
    body,
  };
  if (Object.hasOwn(attributes, CUESCOPE_TURN)) event.turn = attributes[CUESCOPE_TURN];
  return { ok: true, event };
}
