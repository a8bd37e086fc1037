/**
 * OTLP trace and span ids (docs/contract/otlp.md#everything-else): a trace id is exactly 16 bytes and
 * a span id exactly 8, sent as bytes in protobuf and as hex in OTLP/JSON. The decoders keep whatever
 * was sent, as lowercase hex (./model.ts); these checks decide, record by record, whether it can be
 * used. Empty or all zeros means "not set" (the OTLP specification calls an all-zero id invalid).
 */

export const TRACE_ID_BYTES = 16;
export const SPAN_ID_BYTES = 8;

export type IdKind = "trace" | "span" | "parent span";

const BYTES: Record<IdKind, number> = { trace: TRACE_ID_BYTES, span: SPAN_ID_BYTES, "parent span": SPAN_ID_BYTES };

const HEX_BYTES = /^(?:[0-9a-f]{2})*$/;

/** Why an id as decoded cannot be used, or null when it is a valid id or not set. Never repeats the id (it may be megabytes long). */
export function idProblem(id: string, kind: IdKind): string | null {
  if (!HEX_BYTES.test(id)) return `the ${kind} id is not hex (OTLP/JSON sends ids as hex digits, two per byte)`;
  const bytes = id.length / 2;
  const expected = BYTES[kind];
  if (bytes === 0 || bytes === expected) return null;
  return `the ${kind} id is ${bytes} ${bytes === 1 ? "byte" : "bytes"}; a ${kind === "trace" ? "trace" : "span"} id is ${expected} bytes`;
}

/** The id when it is valid and set, else "" (not set, or invalid: see idProblem). All zeros is not set. */
export function usableId(id: string, kind: IdKind): string {
  return idProblem(id, kind) === null && !/^0*$/.test(id) ? id : "";
}

/** An id for a message: itself when valid, else what it is (an invalid id may be megabytes long). */
export function idLabel(id: string, kind: IdKind): string {
  if (id === "") return `(no ${kind} id)`;
  const problem = idProblem(id, kind);
  if (problem === null) return id;
  return HEX_BYTES.test(id) ? `(a ${kind} id of ${id.length / 2} bytes)` : `(a ${kind} id that is not hex)`;
}
