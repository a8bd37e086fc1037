import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { SpanKind, type Attributes } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPTraceExporter as OTLPHttpJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { InMemorySpanExporter, SimpleSpanProcessor, NodeTracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZOtlpRecordsResponse, type TEvent } from "@/lib/contracts";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { WireReader } from "@/lib/otlp/wire";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { otlpLogsRoute, otlpTracesRoute } from "@/lib/server/http/otlp-routes";
import { ingestRoute } from "@/lib/server/http/routes";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisions } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import { routeOf } from "@/lib/server/http/api";
import { ingestApi } from "@/lib/endpoints";

const runOtlpRecordsRoute = routeOf(ingestApi.otlpRecords);

/**
 * The proof of OTLP ingestion with real clients (docs/contract/otlp.md): the official OpenTelemetry
 * JS exporters (protobuf and JSON over HTTP, traces and logs) send a scripted run to the app's own
 * route handlers behind a Node http server; its rebuilt decisions equal those of the same events
 * posted as JSON to /api/v1/ingest.
 */

const RUN_ID = "otel-etf-run";
const ROUTES: Record<string, (request: Request) => Promise<Response>> = {
  "/api/v1/otlp/v1/traces": otlpTracesRoute,
  "/api/v1/otlp/v1/logs": otlpLogsRoute,
  "/api/v1/ingest": ingestRoute,
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A plain Node http server whose handlers are the app's real routes. */
function host(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const url = new URL(`http://localhost${req.url}`);
    const route = ROUTES[url.pathname];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const response = await route(new Request(url, { method: req.method, headers, body: new Uint8Array(body) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Body fields as cuescope.body.<field> when they are all flat; else the whole body as JSON in cuescope.body. */
function cuescopeAttributes(event: TEvent): Attributes {
  const attributes: Attributes = { "cuescope.type": event.type, "cuescope.id": event.id };
  if ("turn" in event && event.turn !== undefined) attributes["cuescope.turn"] = event.turn;
  const body = event.body as Record<string, unknown>;
  const flat = Object.values(body).every((v) => ["string", "number", "boolean"].includes(typeof v));
  if (flat) for (const [field, value] of Object.entries(body)) attributes[`cuescope.body.${field}`] = value as string | number | boolean;
  else attributes["cuescope.body"] = JSON.stringify(body);
  return attributes;
}

const resource = resourceFromAttributes({ "service.name": "etf-agent" });

/** Records spans with the SDK and hands back what it finished. */
function recordSpans(build: (tracer: ReturnType<NodeTracerProvider["getTracer"]>) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  build(provider.getTracer("etf-agent", "1.0.0"));
  return exporter.getFinishedSpans();
}

function recordLogs(build: (logger: ReturnType<LoggerProvider["getLogger"]>) => void): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
  build(provider.getLogger("etf-agent"));
  return exporter.getFinishedLogRecords();
}

/** The exporter's own result: code 0 is ExportResultCode.SUCCESS. */
function exportWith<T>(exporter: { export(items: T, done: (result: { code: number; error?: Error }) => void): void }, items: T) {
  return new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(items, resolve));
}

describe.each(testDatabases())("OTLP/HTTP with the official OpenTelemetry exporters on $name", (kind) => {
  let db: Database;
  let otelKey: string;
  let otelProjectId: string;
  let jsonKey: string;
  let server: Server;
  let base: string;
  const run = generateEtfRun({ runId: RUN_ID, seed: 5, turns: 40, anomalies: true });
  // The run takes part in an experiment (contract §10's run.started addition), which the
  // JavaScript exporter carries in cuescope.body (JSON text: its attributes cannot nest).
  const EXPERIMENT = { id: "exp-otlp-copy", arm: "shorter" };
  const events = (run.events as TEvent[]).map((e) =>
    e.type === "run.started" ? { ...e, body: { ...e.body, experiment: EXPERIMENT } } : e,
  );
  const ended = events.filter((e) => e.type === "run.ended");
  const byTurn = new Map<number | null, TEvent[]>();
  for (const event of events) {
    if (event.type === "run.ended") continue;
    const turn = event.type !== "run.started" && "turn" in event && event.turn !== undefined ? event.turn : null;
    byTurn.set(turn, [...(byTurn.get(turn) ?? []), event]);
  }

  /** One span per turn (run.started on a "run" span), each event a span event at its own time; plus model requests and a tool span. */
  const spans = recordSpans((tracer) => {
    for (const [turn, turnEvents] of byTurn) {
      const start = Date.parse(turnEvents[0].ts);
      const span = tracer.startSpan(turn === null ? "run" : `turn ${turn}`, {
        startTime: start,
        attributes: { "cuescope.run_id": RUN_ID },
      });
      for (const event of turnEvents) span.addEvent(event.type, cuescopeAttributes(event), Date.parse(event.ts));
      span.end(Date.parse(turnEvents.at(-1)!.ts) + 1);
      if (turn !== null && turn % 10 === 1) {
        const chat = tracer.startSpan(`chat research-model`, {
          kind: SpanKind.CLIENT,
          startTime: start + 10,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "mock",
            "gen_ai.request.model": "research-model",
            "gen_ai.response.model": "research-model-2026-10",
            "gen_ai.usage.input_tokens": 1000 + turn,
            "gen_ai.usage.output_tokens": 200 + turn,
            "cuescope.run_id": RUN_ID,
            "cuescope.turn": turn,
          },
        });
        chat.end(start + 1510);
      }
    }
    const tool = tracer.startSpan("tool.search", {
      startTime: Date.parse(events[5].ts),
      attributes: { "cuescope.run_id": RUN_ID, "http.url": "https://example.test/voo" },
    });
    tool.addEvent("cache.miss", { key: "voo" });
    tool.end(Date.parse(events[5].ts) + 250);
  });
  /** run.ended as a log record (cuescope.* attributes), and one plain log record. */
  const logs = recordLogs((logger) => {
    for (const event of ended) {
      logger.emit({
        timestamp: Date.parse(event.ts),
        eventName: "cuescope",
        attributes: { ...cuescopeAttributes(event), "cuescope.run_id": RUN_ID },
      });
    }
    logger.emit({
      timestamp: Date.parse(events[7].ts),
      severityNumber: SeverityNumber.WARN,
      body: { note: "slow fact sheet" },
      attributes: { "cuescope.run_id": RUN_ID },
    });
  });

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    const otel = await createKey(db, "otel");
    otelKey = otel.secret;
    otelProjectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "otel" } })).id;
    jsonKey = (await createKey(db, "json")).secret;
    server = await host();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await db?.close();
  });

  const eventCount = () => db.prisma.event.count({ where: { projectId: otelProjectId } });
  const recordCount = () => db.prisma.otlpRecord.count({ where: { projectId: otelProjectId } });

  it("a run exported as span events (protobuf and JSON exporters, any order) and a log rebuilds to the decisions of the same run posted as JSON", async () => {
    const headers = { authorization: `Bearer ${otelKey}` };
    const proto = new OTLPProtoTraceExporter({ url: `${base}/api/v1/otlp/v1/traces`, headers });
    const json = new OTLPHttpJsonTraceExporter({ url: `${base}/api/v1/otlp/v1/traces`, headers });
    const logExporter = new OTLPLogExporter({ url: `${base}/api/v1/otlp/v1/logs`, headers });
    const half = Math.floor(spans.length / 2);
    // Later turns first, over JSON; then the first half over protobuf; the log records last.
    expect(await exportWith(json, spans.slice(half).reverse())).toEqual({ code: 0 });
    expect(await exportWith(proto, spans.slice(0, half))).toEqual({ code: 0 });
    expect(await exportWith(logExporter, logs)).toEqual({ code: 0 });

    expect(await eventCount()).toBe(events.length);
    const posted = await fetch(`${base}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${jsonKey}`, "content-type": "application/json" },
      body: JSON.stringify({ batch: events }),
    });
    expect(posted.status).toBe(207);

    await settleRebuilds(db);
    const jsonProjectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "json" } })).id;
    const fromOtlp = await getDecisions(db, otelProjectId, RUN_ID);
    const fromJson = await getDecisions(db, jsonProjectId, RUN_ID);
    expect(fromOtlp.turns.length).toBeGreaterThan(30);
    expect(fromOtlp.findings.length).toBeGreaterThan(0);
    expect(fromOtlp).toEqual(fromJson);
    const stored = await db.prisma.run.findMany({
      where: { runId: RUN_ID, projectId: { in: [otelProjectId, jsonProjectId] } },
      select: { experimentId: true, experimentArm: true },
    });
    expect(stored).toEqual([
      { experimentId: EXPERIMENT.id, experimentArm: EXPERIMENT.arm },
      { experimentId: EXPERIMENT.id, experimentArm: EXPERIMENT.arm },
    ]);
  });

  it("keeps the model requests (tokens as tokens) and the unmapped span and log record, and lists them for the run", async () => {
    const response = await runOtlpRecordsRoute(
      new Request(`http://cuescope.test/api/v1/runs/${RUN_ID}/otlp?limit=3`, { headers: { authorization: `Bearer ${otelKey}` } }),
      { params: Promise.resolve({ runId: RUN_ID }) },
    );
    expect(response.status).toBe(200);
    const first = ZOtlpRecordsResponse.parse(await response.json());
    expect(first.counts).toEqual({ modelRequests: 4, spans: 1, logs: 1 });
    expect(first.tokens).toEqual({ input: 4000 + 1 + 11 + 21 + 31, output: 800 + 1 + 11 + 21 + 31 });
    expect(first.records).toHaveLength(3);
    const all = [...first.records];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = ZOtlpRecordsResponse.parse(
        await (
          await runOtlpRecordsRoute(
            new Request(`http://cuescope.test/api/v1/runs/${RUN_ID}/otlp?limit=3&cursor=${cursor}`, {
              headers: { authorization: `Bearer ${otelKey}` },
            }),
            { params: Promise.resolve({ runId: RUN_ID }) },
          )
        ).json(),
      );
      all.push(...page.records);
      cursor = page.nextCursor;
    }
    expect(all.map((r) => r.kind).sort()).toEqual(["log", "model_request", "model_request", "model_request", "model_request", "span"]);
    expect(all.map((r) => r.ts)).toEqual([...all.map((r) => r.ts)].sort());
    const chat = all.find((r) => r.kind === "model_request" && r.turn === 11)!;
    expect(chat.modelRequest).toEqual({
      operation: "chat",
      provider: "mock",
      model: "research-model-2026-10",
      inputTokens: 1011,
      outputTokens: 211,
      durationMs: 1500,
    });
    const tool = all.find((r) => r.kind === "span")!;
    expect(tool.data).toMatchObject({
      name: "tool.search",
      attributes: { "http.url": "https://example.test/voo" },
      events: [{ name: "cache.miss", attributes: { key: "voo" } }],
    });
    expect(all.find((r) => r.kind === "log")!.data).toMatchObject({ severityNumber: 13, body: { note: "slow fact sheet" } });
  });

  it("a re-export of the same spans and logs stores nothing new", async () => {
    const [events0, records0] = [await eventCount(), await recordCount()];
    const headers = { "x-api-key": otelKey };
    expect(await exportWith(new OTLPProtoTraceExporter({ url: `${base}/api/v1/otlp/v1/traces`, headers }), spans)).toEqual({ code: 0 });
    expect(await exportWith(new OTLPLogExporter({ url: `${base}/api/v1/otlp/v1/logs`, headers }), logs)).toEqual({ code: 0 });
    expect([await eventCount(), await recordCount()]).toEqual([events0, records0]);
  });

  it("concurrent exports of the same new spans store each event and record once", async () => {
    const fresh = recordSpans((tracer) => {
      const span = tracer.startSpan("turn 1", {
        startTime: Date.UTC(2026, 10, 30, 2),
        attributes: { "cuescope.run_id": "concurrent-run", "http.route": "/x" },
      });
      for (let i = 0; i < 20; i++) {
        span.addEvent(
          "m",
          { "cuescope.type": "meter.requests", "cuescope.turn": i, "cuescope.body.used": i },
          Date.UTC(2026, 10, 30, 2, 0, i),
        );
      }
      span.end(Date.UTC(2026, 10, 30, 2, 1));
    });
    const body = ProtobufTraceSerializer.serializeRequest(fresh)!;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${base}/api/v1/otlp/v1/traces`, {
          method: "POST",
          body: new Uint8Array(body),
          headers: { authorization: `Bearer ${otelKey}`, "content-type": "application/x-protobuf" },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await db.prisma.event.count({ where: { projectId: otelProjectId, run: { runId: "concurrent-run" } } })).toBe(20);
    expect(await db.prisma.otlpRecord.count({ where: { projectId: otelProjectId, runId: "concurrent-run" } })).toBe(1);
  });

  it("events without cuescope.id get ids derived from the span, the same on every export", async () => {
    const derived = recordSpans((tracer) => {
      const span = tracer.startSpan("turn", { startTime: Date.UTC(2026, 10, 30), attributes: { "cuescope.run_id": "derived-ids" } });
      span.addEvent(
        "meter",
        { "cuescope.type": "meter.requests", "cuescope.turn": 1, "cuescope.body.used": 3 },
        Date.UTC(2026, 10, 30, 0, 0, 1),
      );
      span.addEvent(
        "meter",
        { "cuescope.type": "meter.time", "cuescope.turn": 1, "cuescope.body.elapsedMs": 1000 },
        Date.UTC(2026, 10, 30, 0, 0, 1),
      );
      span.end(Date.UTC(2026, 10, 30, 0, 0, 2));
    });
    const exporter = new OTLPProtoTraceExporter({ url: `${base}/api/v1/otlp/v1/traces`, headers: { authorization: `Bearer ${otelKey}` } });
    expect(await exportWith(exporter, derived)).toEqual({ code: 0 });
    expect(await exportWith(exporter, derived)).toEqual({ code: 0 });
    const stored = await db.prisma.event.findMany({
      where: { projectId: otelProjectId, run: { runId: "derived-ids" } },
      select: { eventId: true },
    });
    expect(stored.map((e) => e.eventId).sort()).toEqual([
      expect.stringMatching(/^otel-\d{20}-[0-9a-f]{32}-[0-9a-f]{16}-0000$/),
      expect.stringMatching(/-0001$/),
    ]);
  });

  describe("the HTTP answers", () => {
    const protoBody = () => ProtobufTraceSerializer.serializeRequest(spans.slice(0, 2))!;
    const post = (path: string, body: Uint8Array | string, headers: Record<string, string>) =>
      fetch(`${base}${path}`, { method: "POST", body: typeof body === "string" ? body : new Uint8Array(body), headers });

    /** google.rpc.Status { code, message } from a protobuf error answer. */
    async function status(response: Response): Promise<{ code: number; message: string }> {
      expect(response.headers.get("content-type")).toBe("application/x-protobuf");
      const r = new WireReader(new Uint8Array(await response.arrayBuffer()), "Status");
      const out = { code: 0, message: "" };
      while (!r.done()) {
        const f = r.next();
        if (f.number === 1) out.code = r.int32();
        else if (f.number === 2) out.message = r.string("message");
        else r.skip(f);
      }
      return out;
    }

    it("takes gzip, and answers a fully accepted protobuf export with an empty ExportTraceServiceResponse", async () => {
      const response = await post("/api/v1/otlp/v1/traces", gzipSync(protoBody()), {
        authorization: `Bearer ${otelKey}`,
        "content-type": "application/x-protobuf",
        "content-encoding": "gzip",
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/x-protobuf");
      expect((await response.arrayBuffer()).byteLength).toBe(0);
    });

    it("takes an OTLP/JSON body (gzipped too) with HTTP Basic auth, and answers JSON", async () => {
      const body = {
        resourceSpans: [
          {
            resource: { attributes: [{ key: "cuescope.run_id", value: { stringValue: "json-run" } }] },
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "5b8efff798038103d269b633813fc60c",
                    spanId: "eee19b7ec3c1b174",
                    name: "chat",
                    startTimeUnixNano: "1764410400000000000",
                    endTimeUnixNano: 1764410401000000000,
                    attributes: [
                      { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
                      { key: "gen_ai.usage.input_tokens", value: { intValue: "42" } },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      };
      const response = await post("/api/v1/otlp/v1/traces", gzipSync(JSON.stringify(body)), {
        authorization: `Basic ${Buffer.from(`otel-collector:${otelKey}`).toString("base64")}`,
        "content-type": "application/json",
        "content-encoding": "gzip",
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
      const record = await db.prisma.otlpRecord.findFirstOrThrow({ where: { projectId: otelProjectId, runId: "json-run" } });
      expect(record).toMatchObject({ kind: "model_request", data: { inputTokens: 42, durationMs: 1000 } });
    });

    it("answers a partial success naming the rejected span event, and stores the valid ones", async () => {
      const mixed = recordSpans((tracer) => {
        const span = tracer.startSpan("turn 3", { startTime: Date.UTC(2026, 10, 30, 1), attributes: { "cuescope.run_id": "partial-run" } });
        span.addEvent(
          "ok",
          { "cuescope.type": "meter.requests", "cuescope.id": "p-1", "cuescope.turn": 3, "cuescope.body.used": 2 },
          Date.UTC(2026, 10, 30, 1),
        );
        span.addEvent(
          "bad",
          { "cuescope.type": "request.final", "cuescope.id": "p-2", "cuescope.turn": 3, "cuescope.body.requiredBytes": -5 },
          Date.UTC(2026, 10, 30, 1),
        );
        span.end(Date.UTC(2026, 10, 30, 1, 0, 1));
      });
      const spanId = mixed[0].spanContext().spanId;
      const response = await post("/api/v1/otlp/v1/traces", ProtobufTraceSerializer.serializeRequest(mixed)!, {
        "x-api-key": otelKey,
        "content-type": "application/x-protobuf",
      });
      expect(response.status).toBe(200);
      const answer = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(await response.arrayBuffer()));
      expect(answer.partialSuccess?.rejectedSpans).toBe(1);
      expect(answer.partialSuccess?.errorMessage).toMatch(
        new RegExp(`^span ${spanId} "turn 3" event 1 \\(request\\.final\\): body\\.requiredBytes: .+`),
      );
      const stored = await db.prisma.event.findMany({
        where: { projectId: otelProjectId, run: { runId: "partial-run" } },
        select: { eventId: true },
      });
      expect(stored.map((e) => e.eventId)).toEqual(["p-1"]);

      const asJson = await post("/api/v1/otlp/v1/traces", new TextDecoder().decode(JsonTraceSerializer.serializeRequest(mixed)!), {
        authorization: `Bearer ${otelKey}`,
        "content-type": "application/json",
      });
      expect(await asJson.json()).toEqual({
        partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringMatching(/event 1 \(request\.final\): body\.requiredBytes/) },
      });
    });

    it("answers 400 with a google.rpc.Status for protobuf that does not decode", async () => {
      const truncated = protoBody().subarray(0, 40);
      const response = await post("/api/v1/otlp/v1/traces", truncated, {
        authorization: `Bearer ${otelKey}`,
        "content-type": "application/x-protobuf",
      });
      expect(response.status).toBe(400);
      const { code, message } = await status(response);
      expect(code).toBe(3);
      expect(message).toMatch(/^the body is not a valid ExportTraceServiceRequest in protobuf: .+ at byte \d+: truncated/);
    });

    it("answers 400 in JSON for OTLP/JSON of the wrong shape, naming the path", async () => {
      const response = await post(
        "/api/v1/otlp/v1/logs",
        JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: "soon" }] }] }] }),
        {
          authorization: `Bearer ${otelKey}`,
          "content-type": "application/json",
        },
      );
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toMatch(
        /resourceLogs\[0\]\.scopeLogs\[0\]\.logRecords\[0\]\.timeUnixNano: expected an integer/,
      );
    });

    const jsonPost = (signal: "traces" | "logs", body: unknown) =>
      post(`/api/v1/otlp/v1/${signal}`, JSON.stringify(body), { authorization: `Bearer ${otelKey}`, "content-type": "application/json" });
    const kv = (key: string, value: unknown) => ({ key, value });
    const toStringList = { kvlistValue: { values: [kv("toString", { stringValue: "x" })] } };

    it("answers a cuescope.type that is a key-value list (with a toString key) with a partial success, traces and logs alike", async () => {
      const traces = await jsonPost("traces", {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "11".repeat(16),
                    spanId: "22".repeat(8),
                    name: "odd",
                    startTimeUnixNano: "1764410400000000000",
                    events: [{ timeUnixNano: "1764410400000000000", attributes: [kv("cuescope.type", toStringList)] }],
                  },
                ],
              },
            ],
          },
        ],
      });
      expect(traces.status).toBe(200);
      expect(await traces.json()).toEqual({
        partialSuccess: {
          rejectedSpans: 1,
          errorMessage: expect.stringMatching(/^span 2222222222222222 "odd" event 0 \(\{"toString":"x"\}\): .*type: unknown event type/),
        },
      });
      const logs = await jsonPost("logs", {
        resourceLogs: [
          { scopeLogs: [{ logRecords: [{ timeUnixNano: "1764410400000000000", attributes: [kv("cuescope.type", toStringList)] }] }] },
        ],
      });
      expect(logs.status).toBe(200);
      expect(await logs.json()).toEqual({
        partialSuccess: {
          rejectedLogRecords: 1,
          errorMessage: expect.stringMatching(/^log record 0 \(\{"toString":"x"\}\): .*type: unknown event type/),
        },
      });
    });

    it("rejects spans and log records whose cuescope.run_id holds NUL or a lone surrogate, and stores the rest of the export", async () => {
      const traceId = "33".repeat(16);
      const at = "1764410400000000000";
      const traces = await jsonPost("traces", {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId,
                    spanId: "00000000000000a1",
                    name: "nul",
                    startTimeUnixNano: at,
                    attributes: [kv("cuescope.run_id", { stringValue: "run\u0000x" })],
                  },
                  {
                    traceId,
                    spanId: "00000000000000a2",
                    name: "fine",
                    startTimeUnixNano: at,
                    attributes: [kv("cuescope.run_id", { stringValue: "run-fine" })],
                  },
                  {
                    traceId,
                    spanId: "00000000000000a3",
                    name: "carrier",
                    startTimeUnixNano: at,
                    attributes: [kv("cuescope.run_id", { stringValue: "run\u0000y" })],
                    events: [
                      {
                        timeUnixNano: at,
                        attributes: [
                          kv("cuescope.type", { stringValue: "meter.requests" }),
                          kv("cuescope.turn", { intValue: 1 }),
                          kv("cuescope.body.used", { intValue: 1 }),
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      });
      expect(traces.status).toBe(200);
      const answer = (await traces.json()) as { partialSuccess: { rejectedSpans: number; errorMessage: string } };
      expect(answer.partialSuccess.rejectedSpans).toBe(2);
      expect(answer.partialSuccess.errorMessage).toMatch(/^span 00000000000000a1 "nul": cuescope\.run_id: contains U\+0000 \(NUL\)/);
      expect(answer.partialSuccess.errorMessage).toMatch(/span 00000000000000a3 "carrier" event 0 \(meter\.requests\): runId: .*U\+0000/);
      const kept = await db.prisma.otlpRecord.findMany({
        where: { projectId: otelProjectId, recordKey: { startsWith: `span:${traceId}` } },
      });
      expect(kept.map((r) => [r.recordKey, r.runId])).toEqual([[`span:${traceId}:00000000000000a2`, "run-fine"]]);

      const logs = await jsonPost("logs", {
        resourceLogs: [
          {
            resource: { attributes: [kv("cuescope.run_id", { stringValue: "lone \ud800" })] },
            scopeLogs: [{ logRecords: [{ timeUnixNano: at, traceId, body: { stringValue: "x" } }] }],
          },
        ],
      });
      expect(logs.status).toBe(200);
      expect(await logs.json()).toEqual({
        partialSuccess: {
          rejectedLogRecords: 1,
          errorMessage: expect.stringMatching(/^log record 0: cuescope\.run_id: contains a lone UTF-16 surrogate/),
        },
      });
    });

    it("answers 413 for an export of more than 10,000 spans, span events and log records", async () => {
      const span = Uint8Array.from([0x12, 0x00]); // ScopeSpans.spans = Span {}
      const spans = new Uint8Array(span.length * 10_001);
      for (let i = 0; i < 10_001; i++) spans.set(span, i * span.length);
      const scopeSpans = Uint8Array.from([0x12, ...varint(spans.length), ...spans]);
      const body = Uint8Array.from([0x0a, ...varint(scopeSpans.length), ...scopeSpans]);
      const response = await post("/api/v1/otlp/v1/traces", body, {
        authorization: `Bearer ${otelKey}`,
        "content-type": "application/x-protobuf",
      });
      expect(response.status).toBe(413);
      const { code, message } = await status(response);
      expect(code).toBe(8);
      expect(message).toMatch(/more than 10000 spans, span events and log records; export smaller batches/);
    });

    it.each([
      ["no key", {}, 401, /missing API key: send `Authorization: Bearer <secret key>`, `x-api-key/],
      ["an unknown x-api-key", { "x-api-key": "cs_unknown" }, 401, /unknown API key/],
      ["Basic with a wrong password", { authorization: `Basic ${Buffer.from("u:cs_wrong").toString("base64")}` }, 401, /unknown API key/],
    ])("answers %s with 401", async (_, headers, code, message) => {
      const response = await post("/api/v1/otlp/v1/traces", protoBody(), { "content-type": "application/x-protobuf", ...headers });
      expect(response.status).toBe(code);
      expect((await status(response)).message).toMatch(message);
    });

    it("answers 415 for another content type or encoding, and 413 beyond the size limit (also once gunzipped)", async () => {
      const auth = { authorization: `Bearer ${otelKey}` };
      const text = await post("/api/v1/otlp/v1/traces", "x", { ...auth, "content-type": "text/plain" });
      expect(text.status).toBe(415);
      expect((await text.json()).error.message).toMatch(/application\/x-protobuf or application\/json, got "text\/plain"/);
      const brotli = await post("/api/v1/otlp/v1/traces", protoBody(), {
        ...auth,
        "content-type": "application/x-protobuf",
        "content-encoding": "br",
      });
      expect(brotli.status).toBe(415);
      const big = new Uint8Array(5 * 1024 * 1024 + 1);
      const tooBig = await post("/api/v1/otlp/v1/traces", big, { ...auth, "content-type": "application/x-protobuf" });
      expect(tooBig.status).toBe(413);
      expect((await status(tooBig)).message).toMatch(/5242880 bytes/);
      const bomb = await post("/api/v1/otlp/v1/traces", gzipSync(big), {
        ...auth,
        "content-type": "application/x-protobuf",
        "content-encoding": "gzip",
      });
      expect(bomb.status).toBe(413);
      expect((await status(bomb)).message).toMatch(/gunzipped body is larger/);
    });
  });
});

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
