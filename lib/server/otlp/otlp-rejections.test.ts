import { randomBytes } from "node:crypto";
import type { Attributes } from "@opentelemetry/api";
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { otlpLogsRoute, otlpTracesRoute } from "@/lib/server/http/otlp-routes";
import { testDatabases } from "@/lib/server/testing/databases";

/**
 * One OTLP record that cannot be stored is rejected alone, in the partial success (docs/contract/otlp.md#answers):
 * never a 4xx or 5xx for the whole export, never losing the valid records beside it, and the same answer for
 * the same content in protobuf and in OTLP/JSON. Trace ids are 16 bytes and span ids 8, exactly.
 */

const BASE = "http://cuescope.test/api/v1/otlp/v1";
const T0 = Date.UTC(2026, 11, 21, 10);
const resource = resourceFromAttributes({ "service.name": "edge-agent" });

function recordSpans(build: (tracer: ReturnType<NodeTracerProvider["getTracer"]>) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  build(provider.getTracer("edge", "1.0.0"));
  return exporter.getFinishedSpans();
}

function recordLogs(build: (logger: ReturnType<LoggerProvider["getLogger"]>) => void): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  build(provider.getLogger("edge"));
  return exporter.getFinishedLogRecords();
}

/** A finished span with its ids replaced (hex as the SDK holds them; the serializers write them as bytes or as hex). */
function withIds(span: ReadableSpan, ids: { traceId?: string; spanId?: string; parentSpanId?: string }): ReadableSpan {
  const context = { ...span.spanContext(), ...(ids.traceId !== undefined ? { traceId: ids.traceId } : {}) };
  if (ids.spanId !== undefined) context.spanId = ids.spanId;
  const parent = ids.parentSpanId !== undefined ? { ...context, spanId: ids.parentSpanId } : span.parentSpanContext;
  return Object.create(span, { spanContext: { value: () => context }, parentSpanContext: { value: parent } }) as ReadableSpan;
}

/** A finished raw span; its run is `runId`, else (null) its trace id. */
function span(name: string, runId: string | null, attributes: Attributes = {}): ReadableSpan {
  return recordSpans((tracer) => {
    const run = runId === null ? {} : { "cuescope.run_id": runId };
    const s = tracer.startSpan(name, { startTime: T0, attributes: { ...run, "tool.name": "search", ...attributes } });
    s.end(T0 + 1000);
  })[0];
}

type Answer = { status: number; rejected: number; errorMessage: string };

describe.each(testDatabases())("OTLP records that cannot be stored, on $name", (kind) => {
  let db: Database;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    const created = await createKey(db, "otlp-edges", "edges");
    key = created.secret;
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "otlp-edges" } })).id;
  }, 180_000);
  afterAll(async () => db?.close());

  const headers = (type: string) => ({ authorization: `Bearer ${key}`, "content-type": type });

  async function exportSpans(spans: ReadableSpan[], encoding: "protobuf" | "json"): Promise<Answer> {
    const body = encoding === "protobuf" ? ProtobufTraceSerializer.serializeRequest(spans)! : JsonTraceSerializer.serializeRequest(spans)!;
    const response = await otlpTracesRoute(
      new Request(`${BASE}/traces`, {
        method: "POST",
        headers: headers(encoding === "protobuf" ? "application/x-protobuf" : "application/json"),
        body: new Uint8Array(body),
      }),
    );
    return answerOf(response, encoding, "traces");
  }

  async function exportLogs(logs: ReadableLogRecord[], encoding: "protobuf" | "json"): Promise<Answer> {
    const body = encoding === "protobuf" ? ProtobufLogsSerializer.serializeRequest(logs)! : JsonLogsSerializer.serializeRequest(logs)!;
    const response = await otlpLogsRoute(
      new Request(`${BASE}/logs`, {
        method: "POST",
        headers: headers(encoding === "protobuf" ? "application/x-protobuf" : "application/json"),
        body: new Uint8Array(body),
      }),
    );
    return answerOf(response, encoding, "logs");
  }

  /** The answer in one shape, whatever its encoding: the status, and the partial success's count and message. */
  async function answerOf(response: Response, encoding: "protobuf" | "json", signal: "traces" | "logs"): Promise<Answer> {
    if (response.status !== 200) return { status: response.status, rejected: -1, errorMessage: await response.text() };
    if (encoding === "json") {
      const body = (await response.json()) as { partialSuccess?: Record<string, unknown> };
      const field = signal === "traces" ? "rejectedSpans" : "rejectedLogRecords";
      return {
        status: 200,
        rejected: Number(body.partialSuccess?.[field] ?? 0),
        errorMessage: String(body.partialSuccess?.errorMessage ?? ""),
      };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (signal === "traces") {
      const { partialSuccess } = ProtobufTraceSerializer.deserializeResponse(bytes);
      return { status: 200, rejected: Number(partialSuccess?.rejectedSpans ?? 0), errorMessage: partialSuccess?.errorMessage ?? "" };
    }
    const { partialSuccess } = ProtobufLogsSerializer.deserializeResponse(bytes);
    return { status: 200, rejected: Number(partialSuccess?.rejectedLogRecords ?? 0), errorMessage: partialSuccess?.errorMessage ?? "" };
  }

  const keptKeys = async (runId: string) =>
    (await db.prisma.otlpRecord.findMany({ where: { projectId, runId }, orderBy: { recordKey: "asc" } })).map((r) => r.recordKey);

  it.each(["protobuf", "json"] as const)(
    "a span with a 700-byte trace id is rejected alone and the valid span beside it is kept (%s)",
    async (encoding) => {
      const runId = `long-trace-${encoding}`;
      const good = span("good", runId);
      const bad = withIds(span("bad", null), { traceId: randomBytes(700).toString("hex") });
      const answer = await exportSpans([bad, good], encoding);
      expect(answer).toEqual({
        status: 200,
        rejected: 1,
        errorMessage: `span ${bad.spanContext().spanId} "bad": the trace id is 700 bytes; a trace id is 16 bytes`,
      });
      expect(await keptKeys(runId)).toEqual([`span:${good.spanContext().traceId}:${good.spanContext().spanId}`]);
    },
  );

  it("ids of another length than 16 and 8 bytes reject their span alone, with the same answer in protobuf and OTLP/JSON", async () => {
    const runId = "short-ids";
    const good = span("good", runId);
    const shortTrace = withIds(span("short trace", runId), { traceId: "abcd" });
    const shortSpan = withIds(span("short span", runId), { spanId: "abcd" });
    const longParent = withIds(span("long parent", runId), { parentSpanId: "ab".repeat(9) });
    const spans = [shortTrace, good, shortSpan, longParent];
    const expected = {
      status: 200,
      rejected: 3,
      errorMessage: [
        `span ${shortTrace.spanContext().spanId} "short trace": the trace id is 2 bytes; a trace id is 16 bytes`,
        `span (a span id of 2 bytes) "short span": the span id is 2 bytes; a span id is 8 bytes`,
        `span ${longParent.spanContext().spanId} "long parent": the parent span id is 9 bytes; a span id is 8 bytes`,
      ].join("; "),
    };
    expect(await exportSpans(spans, "protobuf")).toEqual(expected);
    expect(await exportSpans(spans, "json")).toEqual(expected);
    expect(await keptKeys(runId)).toEqual([`span:${good.spanContext().traceId}:${good.spanContext().spanId}`]);
  });

  it("a span event's telemetry event goes with its span: a span with a bad trace id stores none of its events", async () => {
    const runId = "carrier-bad-trace";
    const carrier = recordSpans((tracer) => {
      const s = tracer.startSpan("turn 0", { startTime: T0, attributes: { "cuescope.run_id": runId } });
      s.addEvent("e", { "cuescope.type": "meter.requests", "cuescope.id": "carrier-1", "cuescope.turn": 0, "cuescope.body.used": 1 }, T0);
      s.end(T0 + 1);
    })[0];
    const answer = await exportSpans([withIds(carrier, { traceId: randomBytes(17).toString("hex") })], "protobuf");
    expect(answer).toMatchObject({
      status: 200,
      rejected: 1,
      errorMessage: expect.stringMatching(/: the trace id is 17 bytes; a trace id is 16 bytes$/),
    });
    expect(await db.prisma.event.count({ where: { projectId, eventId: "carrier-1" } })).toBe(0);
  });

  it("OTLP/JSON ids that are not hex reject their span or log record alone", async () => {
    const traceId = randomBytes(16).toString("hex");
    const at = String(BigInt(T0) * 1_000_000n);
    const response = await otlpTracesRoute(
      new Request(`${BASE}/traces`, {
        method: "POST",
        headers: headers("application/json"),
        body: JSON.stringify({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    { traceId, spanId: "zz00000000000001", name: "not hex", startTimeUnixNano: at },
                    { traceId: traceId.toUpperCase(), spanId: "00000000000000B2", name: "upper case", startTimeUnixNano: at },
                  ],
                },
              ],
            },
          ],
        }),
      }),
    );
    expect(await answerOf(response, "json", "traces")).toEqual({
      status: 200,
      rejected: 1,
      errorMessage: `span (a span id that is not hex) "not hex": the span id is not hex (OTLP/JSON sends ids as hex digits, two per byte)`,
    });
    expect(await keptKeys(traceId)).toEqual([`span:${traceId}:00000000000000b2`]);
  });

  it("log records with a trace or span id of the wrong length are rejected alone, in both encodings alike", async () => {
    const runId = "log-ids";
    const logs = recordLogs((logger) => {
      for (const body of ["good", "short trace", "long span"]) {
        logger.emit({ timestamp: T0, body, attributes: { "cuescope.run_id": runId } });
      }
    });
    const withLogIds = (log: ReadableLogRecord, traceId: string, spanId: string) =>
      Object.create(log, { spanContext: { value: { traceId, spanId, traceFlags: 1 } } }) as ReadableLogRecord;
    const exported = [
      withLogIds(logs[0], randomBytes(16).toString("hex"), randomBytes(8).toString("hex")),
      withLogIds(logs[1], "ab", randomBytes(8).toString("hex")),
      withLogIds(logs[2], randomBytes(16).toString("hex"), randomBytes(700).toString("hex")),
    ];
    const expected = {
      status: 200,
      rejected: 2,
      errorMessage:
        "log record 1: the trace id is 1 byte; a trace id is 16 bytes; log record 2: the span id is 700 bytes; a span id is 8 bytes",
    };
    expect(await exportLogs(exported, "protobuf")).toEqual(expected);
    expect(await exportLogs(exported, "json")).toEqual(expected);
    const kept = await db.prisma.otlpRecord.findMany({ where: { projectId, runId } });
    expect(kept.map((r) => (r.data as { body: unknown }).body)).toEqual(["good"]);
  });

  it("a record or event the database refuses is rejected alone with the database's reason; the rest of the export is stored", async () => {
    // Stand-ins for any refusal of a row for what it holds (a value out of range, an index row too big, …).
    await db.prisma.$executeRawUnsafe(`ALTER TABLE "otlp_records" ADD CONSTRAINT "test_refused_record" CHECK ("run_id" <> 'refused-run')`);
    await db.prisma.$executeRawUnsafe(`ALTER TABLE "events" ADD CONSTRAINT "test_refused_event" CHECK ("event_id" <> 'refused-event')`);
    try {
      const kept = span("kept", "kept-run");
      const refused = span("refused", "refused-run");
      const events = recordSpans((tracer) => {
        const s = tracer.startSpan("turn 0", { startTime: T0, attributes: { "cuescope.run_id": "events-run" } });
        s.addEvent("s", { "cuescope.type": "run.started", "cuescope.id": "events-start", "cuescope.body": JSON.stringify(started) }, T0);
        s.addEvent(
          "a",
          { "cuescope.type": "meter.requests", "cuescope.id": "stored-event", "cuescope.turn": 0, "cuescope.body.used": 1 },
          T0,
        );
        s.addEvent(
          "b",
          { "cuescope.type": "meter.requests", "cuescope.id": "refused-event", "cuescope.turn": 0, "cuescope.body.used": 2 },
          T0,
        );
        s.end(T0 + 1);
      })[0];
      for (const encoding of ["protobuf", "json"] as const) {
        const answer = await exportSpans([refused, events, kept], encoding);
        expect(answer.status).toBe(200);
        expect(answer.rejected).toBe(2);
        const [first, second] = answer.errorMessage.split("; ");
        expect(first).toMatch(
          new RegExp(
            `^span ${events.spanContext().spanId} "turn 0" event 2 \\(meter\\.requests\\): the database could not store it: .*test_refused_event.*\\(SQLSTATE 23514\\)$`,
          ),
        );
        expect(second).toMatch(
          new RegExp(
            `^span ${refused.spanContext().spanId} "refused": the database could not store it: .*test_refused_record.*\\(SQLSTATE 23514\\)$`,
          ),
        );
      }
      expect(await keptKeys("kept-run")).toEqual([`span:${kept.spanContext().traceId}:${kept.spanContext().spanId}`]);
      expect(await keptKeys("refused-run")).toEqual([]);
      const stored = await db.prisma.event.findMany({ where: { projectId, run: { runId: "events-run" } }, orderBy: { eventId: "asc" } });
      expect(stored.map((e) => e.eventId)).toEqual(["events-start", "stored-event"]);
    } finally {
      await db.prisma.$executeRawUnsafe(`ALTER TABLE "otlp_records" DROP CONSTRAINT "test_refused_record"`);
      await db.prisma.$executeRawUnsafe(`ALTER TABLE "events" DROP CONSTRAINT "test_refused_event"`);
    }
  });
});

const started = {
  task: "edge cases",
  policy: { requests: { limit: 40, stages: [0.5, 0.75, 0.9] }, context: { capacityBytes: 10000, stages: [0.7, 0.85, 0.95] } },
};
