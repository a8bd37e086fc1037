import { CUESCOPE_TYPE, isCuescopeEvent, onlyCuescopeAttributes, telemetryEvent, valueLabel } from "./cuescope-event";
import { modelRequestFields, isGenAiSpan } from "./gen-ai";
import { idLabel, idProblem, usableId } from "./ids";
import { emptyMapped, type Mapped } from "./mapped";
import type { Attributes, JsonValue, Span, SpanEvent, TracesRequest } from "./model";
import { boundData, boundShared, runIdOf, storableJson, turnOf, type SharedParts } from "./records";
import { durationMs, nanosKey, nanosToIso } from "./time";

/**
 * Maps an ExportTraceServiceRequest (docs/contract/otlp.md#mapping): each span event carrying
 * cuescope.type is a telemetry v1 event; a GenAI span is a model request; any other span is kept
 * raw, unless it only carries cuescope events and cuescope.* attributes. Nothing else is dropped:
 * a span's events that are not telemetry events stay in its record.
 */
export function mapTraces(request: TracesRequest): Mapped {
  const out = emptyMapped();
  for (const resourceSpans of request.resourceSpans) {
    for (const { scope, spans } of resourceSpans.scopeSpans) {
      const shared = boundShared(scope, resourceSpans.resource);
      for (const span of spans) mapSpan(out, out.items++, span, shared, resourceSpans.resource);
    }
  }
  return out;
}

function spanName(span: Span): string {
  return `span ${idLabel(span.spanId, "span")}${span.name ? ` "${span.name.slice(0, 60)}"` : ""}`;
}

/** Why a span's ids cannot be used (./ids.ts), or null. */
function spanIdsProblem(span: Span): string | null {
  const problem = idProblem(span.traceId, "trace") ?? idProblem(span.spanId, "span") ?? idProblem(span.parentSpanId, "parent span");
  if (problem !== null) return problem;
  if (usableId(span.traceId, "trace") === "" || usableId(span.spanId, "span") === "") {
    return "a span needs a trace id and a span id (16 and 8 bytes, not all zero)";
  }
  return null;
}

function mapSpan(out: Mapped, item: number, span: Span, shared: SharedParts, resource: Attributes): void {
  const origin = spanName(span);
  const idsProblem = spanIdsProblem(span);
  if (idsProblem !== null) {
    out.rejections.push({ item, origin, message: idsProblem });
    return;
  }
  const mappedIds: JsonValue[] = [];
  const otherEvents: SpanEvent[] = [];
  span.events.forEach((event, index) => {
    if (!isCuescopeEvent(event.attributes)) {
      otherEvents.push(event);
      return;
    }
    const eventOrigin = `${origin} event ${index} (${valueLabel(event.attributes[CUESCOPE_TYPE], 40)})`;
    const mapped = telemetryEvent(event.attributes, {
      runIdFrom: [span.attributes, resource],
      timeUnixNano: event.timeUnixNano,
      derivedId: () => `otel-${nanosKey(event.timeUnixNano)}-${span.traceId}-${span.spanId}-${String(index).padStart(4, "0")}`,
    });
    if (!mapped.ok) out.rejections.push({ item, origin: eventOrigin, message: mapped.message });
    else {
      out.events.push({ item, origin: eventOrigin, event: mapped.event });
      mappedIds.push(typeof mapped.event.id === "string" ? mapped.event.id : null);
    }
  });

  const genAi = isGenAiSpan(span.attributes);
  const carrierOnly = !genAi && mappedIds.length > 0 && otherEvents.length === 0 && onlyCuescopeAttributes(span.attributes);
  if (carrierOnly) return;

  const run = runIdOf(span.traceId, span.attributes, resource);
  if (!run.ok) {
    out.rejections.push({ item, origin, message: run.message });
    return;
  }
  const start = span.startTimeUnixNano !== 0n ? span.startTimeUnixNano : span.endTimeUnixNano;
  if (start === 0n) {
    out.rejections.push({ item, origin, message: "a span needs a start time to be kept" });
    return;
  }
  const data: { [key: string]: JsonValue } = {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: usableId(span.parentSpanId, "parent span") || null,
    name: span.name,
    kind: span.kind,
    startTime: span.startTimeUnixNano === 0n ? null : nanosToIso(span.startTimeUnixNano),
    endTime: span.endTimeUnixNano === 0n ? null : nanosToIso(span.endTimeUnixNano),
    durationMs: durationMs(span.startTimeUnixNano, span.endTimeUnixNano),
    status: { code: span.status.code, message: span.status.message },
    ...(genAi ? modelRequestFields(span.attributes) : {}),
    attributes: span.attributes,
    events: otherEvents.map((e) => ({
      time: e.timeUnixNano === 0n ? null : nanosToIso(e.timeUnixNano),
      name: e.name,
      attributes: e.attributes,
    })),
    ...(mappedIds.length > 0 ? { telemetryEventIds: mappedIds } : {}),
  };
  out.records.push({
    item,
    origin,
    kind: genAi ? "model_request" : "span",
    runId: run.runId ?? span.traceId,
    key: `span:${span.traceId}:${span.spanId}`,
    ts: nanosToIso(start),
    turn: turnOf(span.attributes),
    data: boundData(
      { ...(storableJson(data) as { [key: string]: JsonValue }), scope: shared.scope, resource: shared.resource },
      shared.truncated,
    ),
  });
}
