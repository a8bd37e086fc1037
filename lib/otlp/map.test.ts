import { describe, expect, it } from "vitest";
import { mapLogs } from "./map-logs";
import { mapTraces } from "./map-traces";
import type { LogRecord, Span, TracesRequest } from "./model";
import { MAX_RECORD_DATA_CHARS, MAX_SCOPE_CHARS, MAX_TEXT_CHARS, TRUNCATED_TEXT } from "./records";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const NS = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

function span(overrides: Partial<Span> = {}): Span {
  return {
    traceId: TRACE,
    spanId: "b7ad6b7169203331",
    parentSpanId: "",
    name: "turn",
    kind: 1,
    startTimeUnixNano: NS("2026-11-29T10:00:00.000Z"),
    endTimeUnixNano: NS("2026-11-29T10:00:02.500Z"),
    attributes: {},
    events: [],
    status: { code: 0, message: "" },
    ...overrides,
  };
}

function traces(spans: Span[], resource: Record<string, string> = {}): TracesRequest {
  return { resourceSpans: [{ resource, scopeSpans: [{ scope: { name: "agent", version: "1" }, spans }] }] };
}

function log(overrides: Partial<LogRecord> = {}): LogRecord {
  return {
    timeUnixNano: NS("2026-11-29T10:00:01.000Z"),
    observedTimeUnixNano: 0n,
    severityNumber: 9,
    severityText: "INFO",
    body: "hello",
    attributes: {},
    traceId: "",
    spanId: "",
    eventName: "",
    ...overrides,
  };
}

describe("span events with cuescope.* attributes", () => {
  it("become telemetry events: run id from the span, then the resource; body fields and whole-body JSON; ts in ms", () => {
    const mapped = mapTraces(
      traces(
        [
          span({
            attributes: { "cuescope.run_id": "run-span" },
            events: [
              {
                timeUnixNano: NS("2026-11-29T10:00:00.123Z") + 456_789n,
                name: "meter",
                attributes: { "cuescope.type": "meter.requests", "cuescope.turn": 4, "cuescope.id": "e-1", "cuescope.body.used": 12 },
              },
              {
                timeUnixNano: NS("2026-11-29T10:00:01Z"),
                name: "submitted",
                attributes: {
                  "cuescope.type": "request.submitted",
                  "cuescope.turn": 4,
                  "cuescope.run_id": "run-event",
                  "cuescope.body": JSON.stringify({ outcome: "failed", reminders: [{ key: "requests", stage: 1 }] }),
                  "cuescope.body.outcome": "ok",
                },
              },
            ],
          }),
        ],
        { "cuescope.run_id": "run-resource" },
      ),
    );
    expect(mapped.events.map((e) => e.event)).toEqual([
      { id: "e-1", runId: "run-span", type: "meter.requests", ts: "2026-11-29T10:00:00.123Z", turn: 4, body: { used: 12 } },
      {
        id: `otel-${NS("2026-11-29T10:00:01Z").toString().padStart(20, "0")}-${TRACE}-b7ad6b7169203331-0001`,
        runId: "run-event",
        type: "request.submitted",
        ts: "2026-11-29T10:00:01.000Z",
        turn: 4,
        body: { outcome: "ok", reminders: [{ key: "requests", stage: 1 }] },
      },
    ]);
    expect(mapped.events[1].origin).toBe('span b7ad6b7169203331 "turn" event 1 (request.submitted)');
    // The span only carried cuescope events and cuescope.* attributes: nothing else to keep.
    expect(mapped.records).toEqual([]);
  });

  it("sets context parts from flat cuescope.body.contextParts.<part> attributes, over a contextParts given whole (contract §11)", () => {
    const final = (attributes: Record<string, unknown>) =>
      mapTraces(
        traces([
          span({
            attributes: { "cuescope.run_id": "run-1" },
            events: [
              {
                timeUnixNano: 1n,
                name: "final",
                attributes: { "cuescope.type": "request.final", "cuescope.turn": 2, "cuescope.id": "f", ...attributes } as never,
              },
            ],
          }),
        ]),
      ).events[0].event.body;
    expect(
      final({ "cuescope.body.requiredBytes": 900, "cuescope.body.contextParts.history": 500, "cuescope.body.contextParts.system": 100 }),
    ).toEqual({
      requiredBytes: 900,
      contextParts: { history: 500, system: 100 },
    });
    expect(
      final({
        "cuescope.body": JSON.stringify({ requiredBytes: 900, contextParts: { tools: 50, history: 1 } }),
        "cuescope.body.contextParts.history": 500,
      }),
    ).toEqual({ requiredBytes: 900, contextParts: { tools: 50, history: 500 } });
    // Only the contextParts prefix nests: another dotted name stays one (unknown, ignored) field.
    expect(final({ "cuescope.body.requiredBytes": 9, "cuescope.body.policy.requests": 1 })).toEqual({
      requiredBytes: 9,
      "policy.requests": 1,
    });
  });

  it("refuses a cuescope.body that is not a JSON object, naming the event", () => {
    const mapped = mapTraces(
      traces([span({ events: [{ timeUnixNano: 1n, name: "x", attributes: { "cuescope.type": "run.ended", "cuescope.body": "[1]" } }] })]),
    );
    expect(mapped.rejections).toEqual([
      { item: 0, origin: 'span b7ad6b7169203331 "turn" event 0 (run.ended)', message: "cuescope.body: expected a JSON object" },
    ]);
  });

  it("keeps a span's other events and attributes in its raw record, with the ids of the events it mapped", () => {
    const mapped = mapTraces(
      traces([
        span({
          attributes: { "cuescope.run_id": "run-1", "http.method": "POST" },
          events: [
            { timeUnixNano: NS("2026-11-29T10:00:00.5Z"), name: "x", attributes: { "cuescope.type": "meter.time", "cuescope.id": "e-9" } },
            { timeUnixNano: NS("2026-11-29T10:00:00.6Z"), name: "exception", attributes: { "exception.message": "boom" } },
          ],
        }),
      ]),
    );
    expect(mapped.records).toHaveLength(1);
    expect(mapped.records[0]).toMatchObject({
      kind: "span",
      runId: "run-1",
      key: `span:${TRACE}:b7ad6b7169203331`,
      ts: "2026-11-29T10:00:00.000Z",
      data: {
        durationMs: 2500,
        attributes: { "cuescope.run_id": "run-1", "http.method": "POST" },
        events: [{ time: "2026-11-29T10:00:00.600Z", name: "exception", attributes: { "exception.message": "boom" } }],
        telemetryEventIds: ["e-9"],
      },
    });
  });
});

describe("GenAI spans", () => {
  it("are model requests with model, tokens, times and turn; the run is the trace id without cuescope.run_id", () => {
    const mapped = mapTraces(
      traces([
        span({
          name: "chat gpt-x",
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": "openai",
            "gen_ai.request.model": "gpt-x",
            "gen_ai.response.model": "gpt-x-2026",
            "gen_ai.usage.input_tokens": 1500,
            "gen_ai.usage.output_tokens": 320,
            "cuescope.turn": 7,
          },
        }),
      ]),
    );
    expect(mapped.records[0]).toMatchObject({
      kind: "model_request",
      runId: TRACE,
      turn: 7,
      data: {
        operation: "chat",
        provider: "openai",
        model: "gpt-x-2026",
        requestModel: "gpt-x",
        inputTokens: 1500,
        outputTokens: 320,
        durationMs: 2500,
      },
    });
  });

  it("leave tokens null when the span does not report them as integers", () => {
    const mapped = mapTraces(traces([span({ attributes: { "gen_ai.system": "x", "gen_ai.usage.input_tokens": "many" } })]));
    expect(mapped.records[0].data).toMatchObject({ provider: "x", model: null, inputTokens: null, outputTokens: null });
  });
});

describe("unmapped records", () => {
  it("refuses a span without ids, and bounds a huge one", () => {
    const huge = "x".repeat(MAX_RECORD_DATA_CHARS);
    const mapped = mapTraces(traces([span({ traceId: "" }), span({ attributes: { blob: huge, small: 1 } })]));
    expect(mapped.rejections).toEqual([
      { item: 0, origin: 'span b7ad6b7169203331 "turn"', message: expect.stringMatching(/trace id and a span id/) },
    ]);
    expect(mapped.records[0].data).toMatchObject({
      truncated: true,
      name: "turn",
      attributes: { truncated: true, keys: ["blob", "small"] },
    });
    expect(JSON.stringify(mapped.records[0].data).length).toBeLessThan(MAX_RECORD_DATA_CHARS);
  });

  it("replaces text PostgreSQL cannot store (NUL, lone surrogates) in raw records", () => {
    const mapped = mapTraces(traces([span({ name: "a\u0000b", attributes: { ["k\uD800"]: "v\uDC00", ok: "😀" } })]));
    expect(mapped.records[0].data).toMatchObject({ name: "a\uFFFDb", attributes: { ["k\uFFFD"]: "v\uFFFD", ok: "😀" } });
  });
});

describe("log records", () => {
  it("with cuescope.type are telemetry events; without cuescope.id their id is the same on every export", () => {
    const record = log({ attributes: { "cuescope.type": "run.ended", "cuescope.body.status": "completed" }, body: null });
    const request = {
      resourceLogs: [
        { resource: { "cuescope.run_id": "run-logs" }, scopeLogs: [{ scope: { name: "", version: "" }, logRecords: [record] }] },
      ],
    };
    const first = mapLogs(request);
    expect(first.events[0].event).toMatchObject({
      runId: "run-logs",
      type: "run.ended",
      ts: "2026-11-29T10:00:01.000Z",
      body: { status: "completed" },
    });
    expect(first.events[0].event.id).toMatch(/^otel-log-\d{20}-[0-9a-f]{28}$/);
    expect(mapLogs(request).events[0].event.id).toBe(first.events[0].event.id);
    const other = mapLogs({
      ...request,
      resourceLogs: [
        { ...request.resourceLogs[0], scopeLogs: [{ scope: { name: "", version: "" }, logRecords: [{ ...record, severityNumber: 10 }] }] },
      ],
    });
    expect(other.events[0].event.id).not.toBe(first.events[0].event.id);
  });

  it("without either are kept raw under the trace id, or refused when there is no run to keep them with", () => {
    const mapped = mapLogs({
      resourceLogs: [
        {
          resource: {},
          scopeLogs: [
            {
              scope: { name: "s", version: "" },
              logRecords: [
                log({ traceId: TRACE }),
                log({ eventName: "orphan" }),
                log({ traceId: TRACE, timeUnixNano: 0n, observedTimeUnixNano: NS("2026-11-29T10:00:03Z") }),
              ],
            },
          ],
        },
      ],
    });
    expect(mapped.records.map((r) => [r.kind, r.runId, r.ts])).toEqual([
      ["log", TRACE, "2026-11-29T10:00:01.000Z"],
      ["log", TRACE, "2026-11-29T10:00:03.000Z"],
    ]);
    expect(mapped.records[0].data).toMatchObject({ body: "hello", severityText: "INFO" });
    expect(mapped.rejections).toEqual([
      { item: 1, origin: 'log record 1 "orphan"', message: expect.stringMatching(/no cuescope.run_id and no trace id/) },
    ]);
  });
});

describe("bounds of stored records", () => {
  const size = (data: unknown) => JSON.stringify(data).length;

  it("a 60 KB resource shared by many spans is kept small in each, not copied whole", () => {
    const resource = { "service.name": "agent", blob: "r".repeat(60_000) };
    const many = Array.from({ length: 1000 }, (_, i) => span({ spanId: (i + 1).toString(16).padStart(16, "0") }));
    const mapped = mapTraces(traces(many, resource));
    expect(mapped.records).toHaveLength(1000);
    const total = mapped.records.reduce((sum, r) => sum + size(r.data), 0);
    expect(total).toBeLessThan(1000 * 6 * 1024);
    expect(mapped.records[0].data).toMatchObject({ truncated: true, resource: { "service.name": "agent" } });
    expect((mapped.records[0].data.resource as { blob: string }).blob).toBe("r".repeat(MAX_SCOPE_CHARS) + TRUNCATED_TEXT);
  });

  it("a 200 KB span name, scope name, status message or model is cut, and the record says so", () => {
    const long = "n".repeat(200_000);
    const mapped = mapTraces({
      resourceSpans: [
        {
          resource: {},
          scopeSpans: [
            {
              scope: { name: long, version: long },
              spans: [
                span({
                  name: long,
                  status: { code: 2, message: long },
                  attributes: { "gen_ai.system": long, "gen_ai.request.model": long, "gen_ai.response.model": long },
                }),
              ],
            },
          ],
        },
      ],
    });
    const data = mapped.records[0].data;
    const cut = "n".repeat(MAX_TEXT_CHARS) + TRUNCATED_TEXT;
    expect(data).toMatchObject({ truncated: true, name: cut, status: { message: cut }, provider: cut, model: cut, requestModel: cut });
    expect(data.scope).toEqual({
      name: "n".repeat(MAX_SCOPE_CHARS) + TRUNCATED_TEXT,
      version: "n".repeat(MAX_SCOPE_CHARS) + TRUNCATED_TEXT,
    });
    expect(size(data)).toBeLessThanOrEqual(MAX_RECORD_DATA_CHARS);
  });

  it("a log record's severity text and event name are cut too", () => {
    const long = "s".repeat(200_000);
    const mapped = mapLogs({
      resourceLogs: [
        {
          resource: {},
          scopeLogs: [{ scope: { name: "", version: "" }, logRecords: [log({ traceId: TRACE, severityText: long, eventName: long })] }],
        },
      ],
    });
    expect(mapped.records[0].data).toMatchObject({ truncated: true, severityText: "s".repeat(MAX_TEXT_CHARS) + TRUNCATED_TEXT });
    expect(size(mapped.records[0].data)).toBeLessThanOrEqual(MAX_RECORD_DATA_CHARS);
  });

  it("is never over 64 KiB, whatever is long: keys, event names, telemetry event ids, everything at once", () => {
    const long = "k".repeat(100_000);
    const attributes = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${i}${long}`, 1]));
    const events = Array.from({ length: 20 }, (_, i) => ({ timeUnixNano: 1n, name: `${i}${long}`, attributes: {} }));
    const carried = Array.from({ length: 50 }, () => ({
      timeUnixNano: 1n,
      name: "c",
      attributes: { "cuescope.type": "meter.requests", "cuescope.id": long },
    }));
    const mapped = mapTraces(
      traces([
        span({
          name: long,
          status: { code: 2, message: long },
          attributes: {
            ...attributes,
            "gen_ai.operation.name": long,
            "gen_ai.system": long,
            "gen_ai.request.model": long,
            "gen_ai.response.model": `x${long}`,
          },
          events: [...events, ...carried],
        }),
      ]),
    );
    const data = mapped.records[0].data;
    expect(size(data)).toBeLessThanOrEqual(MAX_RECORD_DATA_CHARS);
    expect(data).toMatchObject({ truncated: true, traceId: TRACE, spanId: "b7ad6b7169203331", startTime: "2026-11-29T10:00:00.000Z" });
  });
});

describe("attacker-shaped cuescope.* values", () => {
  const toStringList = { toString: "x" };

  it("a cuescope.type that is a key-value list with a toString key is labelled as JSON, not a crash (spans and logs)", () => {
    const spanMapped = mapTraces(
      traces([span({ events: [{ timeUnixNano: NS("2026-11-29T10:00:00Z"), name: "e", attributes: { "cuescope.type": toStringList } }] })]),
    );
    expect(spanMapped.events[0]).toMatchObject({ origin: 'span b7ad6b7169203331 "turn" event 0 ({"toString":"x"})' });
    const logMapped = mapLogs({
      resourceLogs: [
        {
          resource: {},
          scopeLogs: [{ scope: { name: "", version: "" }, logRecords: [log({ attributes: { "cuescope.type": toStringList } })] }],
        },
      ],
    });
    expect(logMapped.events[0]).toMatchObject({ origin: 'log record 0 ({"toString":"x"})', event: { type: toStringList } });
  });

  it("refuses a raw span or log record whose cuescope.run_id is not a storable run id, naming why", () => {
    const mapped = mapTraces(
      traces([
        span({ spanId: "0000000000000001", attributes: { "cuescope.run_id": "a\u0000b" } }),
        span({ spanId: "0000000000000002", attributes: { "cuescope.run_id": toStringList } }),
        span({ spanId: "0000000000000003", attributes: { "cuescope.run_id": "r".repeat(129) } }),
        span({ spanId: "0000000000000004" }),
      ]),
    );
    expect(mapped.records.map((r) => r.runId)).toEqual([TRACE]);
    expect(mapped.rejections.map((r) => [r.item, r.message])).toEqual([
      [0, expect.stringMatching(/^cuescope\.run_id: contains U\+0000 \(NUL\) at character 1/)],
      [1, expect.stringMatching(/^cuescope\.run_id: expected string of 1-128 characters, got \{"toString":"x"\}/)],
      [2, expect.stringMatching(/^cuescope\.run_id: expected string of 1-128 characters/)],
    ]);
    const logs = mapLogs({
      resourceLogs: [
        {
          resource: { "cuescope.run_id": "lone \uD800" },
          scopeLogs: [{ scope: { name: "", version: "" }, logRecords: [log({ traceId: TRACE })] }],
        },
      ],
    });
    expect(logs.records).toEqual([]);
    expect(logs.rejections[0].message).toMatch(/^cuescope\.run_id: contains a lone UTF-16 surrogate U\+D800/);
  });
});
