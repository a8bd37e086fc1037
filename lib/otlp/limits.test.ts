import { describe, expect, it } from "vitest";
import { decodeAndMap } from "./decode";
import { MAX_EXPORT_ITEMS, OtlpLimitError } from "./limits";

/** Protobuf by hand: a length-delimited field, its parts concatenated without copying each one into an array. */
function field(number: number, parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const head = [...varint(number * 8 + 2), ...varint(length)];
  const out = new Uint8Array(head.length + length);
  out.set(head, 0);
  let at = head.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

const EMPTY_SPAN = field(2, []); // ScopeSpans.spans = Span {}
const EMPTY_LOG = field(2, []); // ScopeLogs.log_records = LogRecord {}
const EMPTY_EVENT = field(11, []); // Span.events = Span.Event {}

/** ExportTraceServiceRequest { resource_spans { scope_spans { spans… } } } */
const tracesWith = (spans: Uint8Array[]) => field(1, [field(2, spans)]);
const logsWith = (logs: Uint8Array[]) => field(1, [field(2, logs)]);

describe("items per export", () => {
  it(`takes ${MAX_EXPORT_ITEMS} spans, and refuses one more before mapping anything`, () => {
    expect(decodeAndMap("traces", "protobuf", tracesWith(Array(MAX_EXPORT_ITEMS).fill(EMPTY_SPAN))).items).toBe(MAX_EXPORT_ITEMS);
    expect(() => decodeAndMap("traces", "protobuf", tracesWith(Array(MAX_EXPORT_ITEMS + 1).fill(EMPTY_SPAN)))).toThrow(OtlpLimitError);
  });

  it("counts span events with the spans, and log records alike", () => {
    const span = field(2, Array(MAX_EXPORT_ITEMS).fill(EMPTY_EVENT)); // one span with 10,000 events: 10,001 items
    expect(() => decodeAndMap("traces", "protobuf", tracesWith([span]))).toThrow(/more than 10000 spans, span events and log records/);
    expect(decodeAndMap("logs", "protobuf", logsWith(Array(MAX_EXPORT_ITEMS).fill(EMPTY_LOG))).items).toBe(MAX_EXPORT_ITEMS);
    expect(() => decodeAndMap("logs", "protobuf", logsWith(Array(MAX_EXPORT_ITEMS + 1).fill(EMPTY_LOG)))).toThrow(OtlpLimitError);
  });

  it("counts in OTLP/JSON too", () => {
    const spans = Array.from({ length: MAX_EXPORT_ITEMS - 1 }, () => ({}));
    const body = (events: number) =>
      new TextEncoder().encode(
        JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [...spans, { events: Array(events).fill({}) }] }] }] }),
      );
    expect(decodeAndMap("traces", "json", body(0)).items).toBe(MAX_EXPORT_ITEMS);
    expect(() => decodeAndMap("traces", "json", body(1))).toThrow(OtlpLimitError);
    const logs = { resourceLogs: [{ scopeLogs: [{ logRecords: Array(MAX_EXPORT_ITEMS + 1).fill({}) }] }] };
    expect(() => decodeAndMap("logs", "json", new TextEncoder().encode(JSON.stringify(logs)))).toThrow(OtlpLimitError);
  });

  it("stops decoding 5 MB of empty spans (2.6 million) at the limit", () => {
    const count = Math.floor((5 * 1024 * 1024 - 20) / EMPTY_SPAN.length);
    const body = tracesWith(Array(count).fill(EMPTY_SPAN));
    const before = process.memoryUsage().heapUsed;
    expect(() => decodeAndMap("traces", "protobuf", body)).toThrow(OtlpLimitError);
    // Decoding all of them took about 1 GB; stopping at the limit leaves almost nothing behind.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024);
  });
});
