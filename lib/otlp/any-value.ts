import type { JsonValue } from "./model";

/**
 * How an OTLP AnyValue becomes JSON (docs/contract/otlp.md#attribute-values): string, bool and
 * double as themselves; int64 as a number when it is a safe integer (|n| ≤ 2^53 − 1), else as its
 * decimal string; a double that is not finite as the string "NaN", "Infinity" or "-Infinity";
 * bytes as base64; an array as an array; a key-value list as an object (a repeated key: the last
 * wins); an empty AnyValue as null.
 */
export function intValue(value: bigint): JsonValue {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
}

export function doubleValue(value: number): JsonValue {
  return Number.isFinite(value) ? value : String(value);
}

export function bytesValue(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Lowercase hex of an id; an all-zero or empty id is "" (not set). */
export function hexOfBytes(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return /^0*$/.test(hex) ? "" : hex;
}
