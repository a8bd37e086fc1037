import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { InMemorySpanExporter, SimpleSpanProcessor, NodeTracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { describe, expect, it } from "vitest";
import { decodeLogsJson, decodeTracesJson } from "./decode-json";
import { decodeLogsProto, decodeTracesProto } from "./decode-proto";
import { decodeAndMap, OtlpDecodeError } from "./decode";
import { exportResponseProto, statusProto } from "./responses";
import { WireReader } from "./wire";

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);
const resource = resourceFromAttributes({ "service.name": "etf-agent", "cuescope.run_id": "run-otel" });

function spans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer("decode-test", "1.2.3");
  const span = tracer.startSpan("chat m-large", {
    kind: SpanKind.CLIENT,
    startTime: T0,
    attributes: {
      "gen_ai.operation.name": "chat",
      "gen_ai.usage.input_tokens": 1234,
      ratio: 0.25,
      ok: true,
      tags: ["a", "b"],
      big: 2 ** 40,
    },
  });
  span.addEvent("cuescope", { "cuescope.type": "meter.requests", "cuescope.turn": 3, "cuescope.body.used": 7 }, T0 + 5);
  span.addEvent("note", { "ü-key": "naïve ✓ text" }, T0 + 6);
  span.setStatus({ code: SpanStatusCode.ERROR, message: "rate limited" });
  span.end(T0 + 1500);
  const child = tracer.startSpan("tool", { startTime: T0 + 10 });
  child.end(T0 + 20);
  return exporter.getFinishedSpans();
}

function logRecords(): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  const logger = provider.getLogger("decode-test");
  logger.emit({
    timestamp: T0 + 7,
    observedTimestamp: T0 + 8,
    severityNumber: SeverityNumber.WARN,
    severityText: "WARN",
    eventName: "agent.note",
    body: { text: "nested", list: [1, "two", { three: 3 }] },
    attributes: { "cuescope.run_id": "run-log", count: 5 },
  });
  logger.emit({ timestamp: T0 + 9, body: "plain" });
  return exporter.getFinishedLogRecords();
}

describe("decoding what the official OTLP serializers write", () => {
  const finished = spans();
  const proto = ProtobufTraceSerializer.serializeRequest(finished)!;
  const json = JsonTraceSerializer.serializeRequest(finished)!;

  it("reads every field of spans, events, status, scope and resource from protobuf", () => {
    const request = decodeTracesProto(proto);
    expect(request.resourceSpans).toHaveLength(1);
    const [rs] = request.resourceSpans;
    expect(rs.resource).toMatchObject({ "service.name": "etf-agent", "cuescope.run_id": "run-otel" });
    expect(rs.scopeSpans[0].scope).toEqual({ name: "decode-test", version: "1.2.3" });
    const byName = Object.fromEntries(rs.scopeSpans[0].spans.map((s) => [s.name, s]));
    const chat = byName["chat m-large"];
    const original = finished.find((s) => s.name === "chat m-large")!;
    expect(chat).toMatchObject({
      traceId: original.spanContext().traceId,
      spanId: original.spanContext().spanId,
      kind: 3,
      startTimeUnixNano: BigInt(T0) * 1_000_000n,
      endTimeUnixNano: BigInt(T0 + 1500) * 1_000_000n,
      status: { code: 2, message: "rate limited" },
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.usage.input_tokens": 1234,
        ratio: 0.25,
        ok: true,
        tags: ["a", "b"],
        big: 2 ** 40,
      },
    });
    expect(chat.events).toEqual([
      {
        timeUnixNano: BigInt(T0 + 5) * 1_000_000n,
        name: "cuescope",
        attributes: { "cuescope.type": "meter.requests", "cuescope.turn": 3, "cuescope.body.used": 7 },
      },
      { timeUnixNano: BigInt(T0 + 6) * 1_000_000n, name: "note", attributes: { "ü-key": "naïve ✓ text" } },
    ]);
    expect(byName.tool.parentSpanId).toBe("");
  });

  it("reads OTLP/JSON (hex ids, int64 as strings) into exactly what protobuf gives", () => {
    const text = new TextDecoder().decode(json);
    expect(text).toMatch(/"traceId":"[0-9a-f]{32}"/);
    expect(decodeTracesJson(JSON.parse(text))).toEqual(decodeTracesProto(proto));
  });

  it("reads log records (kvlist and array bodies, severity, event name, times) from protobuf and JSON alike", () => {
    const records = logRecords();
    const fromProto = decodeLogsProto(ProtobufLogsSerializer.serializeRequest(records)!);
    const logs = fromProto.resourceLogs[0].scopeLogs[0].logRecords;
    expect(logs[0]).toMatchObject({
      timeUnixNano: BigInt(T0 + 7) * 1_000_000n,
      observedTimeUnixNano: BigInt(T0 + 8) * 1_000_000n,
      severityNumber: 13,
      severityText: "WARN",
      eventName: "agent.note",
      body: { text: "nested", list: [1, "two", { three: 3 }] },
      attributes: { "cuescope.run_id": "run-log", count: 5 },
    });
    expect(logs[1].body).toBe("plain");
    const fromJson = decodeLogsJson(JSON.parse(new TextDecoder().decode(JsonLogsSerializer.serializeRequest(records)!)));
    expect(fromJson).toEqual(fromProto);
  });

  it("accepts int64 as numbers, snake_case names, and ignores unknown fields in JSON", () => {
    const request = decodeTracesJson({
      resource_spans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: "0102030405060708090A0B0C0D0E0F10",
                  span_id: "0102030405060708",
                  startTimeUnixNano: 1764410400000000000,
                  kind: 2,
                  unknownField: { anything: true },
                  attributes: [{ key: "n", value: { intValue: 9007199254740993n.toString() } }],
                },
              ],
            },
          ],
        },
      ],
    });
    const span = request.resourceSpans[0].scopeSpans[0].spans[0];
    expect(span).toMatchObject({ traceId: "0102030405060708090a0b0c0d0e0f10", spanId: "0102030405060708", kind: 2 });
    expect(span.attributes.n).toBe("9007199254740993"); // beyond 2^53 − 1: kept exact as a string
  });

  it("names the path of a JSON value of the wrong type", () => {
    const bad = { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 42 }] }] }] };
    expect(() => decodeAndMap("traces", "json", new TextEncoder().encode(JSON.stringify(bad)))).toThrow(
      /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId: expected a string/,
    );
  });

  it("reads an id that is not 16 or 8 bytes of hex, in either encoding, and rejects its span alone", () => {
    const ids = (traceId: string) => ({ traceId, spanId: "0102030405060708", name: "s", startTimeUnixNano: "1" });
    const json = { resourceSpans: [{ scopeSpans: [{ spans: [ids("xyz"), ids("ABCD"), ids("0102030405060708090a0b0c0d0e0f10")] }] }] };
    const mapped = decodeAndMap("traces", "json", new TextEncoder().encode(JSON.stringify(json)));
    expect(mapped.rejections).toEqual([
      {
        item: 0,
        origin: 'span 0102030405060708 "s"',
        message: "the trace id is not hex (OTLP/JSON sends ids as hex digits, two per byte)",
      },
      { item: 1, origin: 'span 0102030405060708 "s"', message: "the trace id is 2 bytes; a trace id is 16 bytes" },
    ]);
    expect(mapped.records.map((r) => r.item)).toEqual([2]);
  });
});

describe("malformed protobuf", () => {
  const proto = ProtobufTraceSerializer.serializeRequest(spans())!;

  it("every truncation is refused with a reason or read as a shorter valid message, never a crash", () => {
    let refused = 0;
    for (let length = 0; length < proto.length; length++) {
      try {
        decodeAndMap("traces", "protobuf", proto.subarray(0, length));
      } catch (error) {
        expect(error, `length ${length}`).toBeInstanceOf(OtlpDecodeError);
        expect((error as Error).message).toMatch(/at byte \d+: /);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(proto.length / 2);
  });

  it("random corruption never escapes as anything but OtlpDecodeError", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 2000; round++) {
      const copy = proto.slice();
      for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--)
        copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      try {
        decodeAndMap("traces", "protobuf", copy);
      } catch (error) {
        expect(error).toBeInstanceOf(OtlpDecodeError);
      }
    }
  });

  it.each([
    ["a group wire type", [0x0b], /wire type 3 \(group start\), which OTLP never uses/],
    ["field number 0", [0x02, 0x00], /field number 0/],
    ["a length past the end", [0x0a, 0x05, 0x01], /truncated: a length of 5 bytes, 1 left/],
    ["resource_spans as a varint", [0x08, 0x01], /field 1 \(resource_spans\) should be length-delimited, got varint/],
    ["an 11-byte varint", [0x48, ...Array(10).fill(0xff), 0x01], /varint longer than 10 bytes/],
  ])("refuses %s", (_, bytes, message) => {
    expect(() => decodeAndMap("traces", "protobuf", Uint8Array.from(bytes))).toThrow(message);
  });

  it("refuses a string that is not UTF-8, naming the field", () => {
    // ResourceSpans { ScopeSpans { Span { name = 0xff } } }
    const span = [0x2a, 0x01, 0xff];
    const scopeSpans = [0x12, span.length, ...span];
    const resourceSpans = [0x12, scopeSpans.length, ...scopeSpans];
    expect(() => decodeAndMap("traces", "protobuf", Uint8Array.from([0x0a, resourceSpans.length, ...resourceSpans]))).toThrow(
      /Span\.name is not valid UTF-8/,
    );
  });

  it("refuses attribute values nested deeper than 32 levels", () => {
    let deep: number[] = [0x08, 0x01]; // AnyValue { bool_value = true }
    for (let i = 0; i < 40; i++) {
      deep = encodeLen(0x2a, encodeLen(0x0a, deep)); // AnyValue { array_value = ArrayValue { values = deep } }
    }
    const kv = [...encodeLen(0x0a, [0x6b]), ...encodeLen(0x12, deep)];
    const span = encodeLen(0x4a, kv);
    const request = encodeLen(0x0a, encodeLen(0x12, encodeLen(0x12, span)));
    expect(() => decodeAndMap("traces", "protobuf", Uint8Array.from(request))).toThrow(/nest deeper than 32 levels/);
  });
});

function encodeLen(tag: number, bytes: number[]): number[] {
  const length: number[] = [];
  let n = bytes.length;
  do {
    length.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return [tag, ...length, ...bytes];
}

describe("answers", () => {
  it("the official deserializer reads our partial success", () => {
    const bytes = exportResponseProto({
      rejected: 3,
      errorMessage: "span 0102… event 2 (request.final): body.requiredBytes: expected integer",
    });
    expect(ProtobufTraceSerializer.deserializeResponse(bytes)).toMatchObject({
      partialSuccess: { rejectedSpans: 3, errorMessage: "span 0102… event 2 (request.final): body.requiredBytes: expected integer" },
    });
    expect(ProtobufLogsSerializer.deserializeResponse(exportResponseProto({ rejected: 1, errorMessage: "x" }))).toMatchObject({
      partialSuccess: { rejectedLogRecords: 1, errorMessage: "x" },
    });
    expect(exportResponseProto({ rejected: 0, errorMessage: "" })).toHaveLength(0);
  });

  it("a google.rpc.Status carries the gRPC code and the message", () => {
    const r = new WireReader(statusProto(400, "bad body"), "Status");
    const fields: Record<number, unknown> = {};
    while (!r.done()) {
      const f = r.next();
      fields[f.number] = f.number === 1 ? r.int32() : r.string("message");
    }
    expect(fields).toEqual({ 1: 3, 2: "bad body" });
  });
});
