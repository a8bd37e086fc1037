import { bytesValue, doubleValue, hexOfBytes, intValue } from "./any-value";
import {
  MAX_VALUE_DEPTH,
  type Attributes,
  type JsonValue,
  type LogRecord,
  type LogsRequest,
  type ResourceLogs,
  type ResourceSpans,
  type Scope,
  type ScopeLogs,
  type ScopeSpans,
  type Span,
  type SpanEvent,
  type TracesRequest,
} from "./model";
import { ItemBudget } from "./limits";
import { WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, WireError, WireReader, type Field } from "./wire";

/**
 * Decoders of the OTLP protobuf messages Cuescope reads (opentelemetry-proto, collector/trace/v1
 * and collector/logs/v1), with the field numbers of the .proto files. Unknown fields are skipped;
 * a malformed message throws WireError (./wire.ts).
 */

export function decodeTracesProto(buf: Uint8Array, budget = new ItemBudget()): TracesRequest {
  const r = new WireReader(buf, "ExportTraceServiceRequest");
  const resourceSpans: ResourceSpans[] = [];
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "resource_spans");
      resourceSpans.push(readResourceSpans(r.message("ResourceSpans"), budget));
    } else r.skip(f);
  }
  return { resourceSpans };
}

export function decodeLogsProto(buf: Uint8Array, budget = new ItemBudget()): LogsRequest {
  const r = new WireReader(buf, "ExportLogsServiceRequest");
  const resourceLogs: ResourceLogs[] = [];
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "resource_logs");
      resourceLogs.push(readResourceLogs(r.message("ResourceLogs"), budget));
    } else r.skip(f);
  }
  return { resourceLogs };
}

function readResourceSpans(r: WireReader, budget: ItemBudget): ResourceSpans {
  const out: ResourceSpans = { resource: {}, scopeSpans: [] };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "resource");
      out.resource = readResource(r.message("Resource"));
    } else if (f.number === 2) {
      r.expect(f, WIRE_LEN, "scope_spans");
      out.scopeSpans.push(readScopeSpans(r.message("ScopeSpans"), budget));
    } else r.skip(f);
  }
  return out;
}

function readResourceLogs(r: WireReader, budget: ItemBudget): ResourceLogs {
  const out: ResourceLogs = { resource: {}, scopeLogs: [] };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "resource");
      out.resource = readResource(r.message("Resource"));
    } else if (f.number === 2) {
      r.expect(f, WIRE_LEN, "scope_logs");
      out.scopeLogs.push(readScopeLogs(r.message("ScopeLogs"), budget));
    } else r.skip(f);
  }
  return out;
}

function readResource(r: WireReader): Attributes {
  const attributes: Attributes = {};
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) readKeyValueInto(r, f, attributes, 0);
    else r.skip(f);
  }
  return attributes;
}

function readScope(r: WireReader): Scope {
  const scope: Scope = { name: "", version: "" };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "name");
      scope.name = r.string("InstrumentationScope.name");
    } else if (f.number === 2) {
      r.expect(f, WIRE_LEN, "version");
      scope.version = r.string("InstrumentationScope.version");
    } else r.skip(f);
  }
  return scope;
}

function readScopeSpans(r: WireReader, budget: ItemBudget): ScopeSpans {
  const out: ScopeSpans = { scope: { name: "", version: "" }, spans: [] };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "scope");
      out.scope = readScope(r.message("InstrumentationScope"));
    } else if (f.number === 2) {
      r.expect(f, WIRE_LEN, "spans");
      budget.take();
      out.spans.push(readSpan(r.message("Span"), budget));
    } else r.skip(f);
  }
  return out;
}

function readScopeLogs(r: WireReader, budget: ItemBudget): ScopeLogs {
  const out: ScopeLogs = { scope: { name: "", version: "" }, logRecords: [] };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_LEN, "scope");
      out.scope = readScope(r.message("InstrumentationScope"));
    } else if (f.number === 2) {
      r.expect(f, WIRE_LEN, "log_records");
      budget.take();
      out.logRecords.push(readLogRecord(r.message("LogRecord")));
    } else r.skip(f);
  }
  return out;
}

function readSpan(r: WireReader, budget: ItemBudget): Span {
  const span: Span = {
    traceId: "",
    spanId: "",
    parentSpanId: "",
    name: "",
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: {},
    events: [],
    status: { code: 0, message: "" },
  };
  while (!r.done()) {
    const f = r.next();
    switch (f.number) {
      case 1:
        r.expect(f, WIRE_LEN, "trace_id");
        span.traceId = hexOfBytes(r.bytes());
        break;
      case 2:
        r.expect(f, WIRE_LEN, "span_id");
        span.spanId = hexOfBytes(r.bytes());
        break;
      case 4:
        r.expect(f, WIRE_LEN, "parent_span_id");
        span.parentSpanId = hexOfBytes(r.bytes());
        break;
      case 5:
        r.expect(f, WIRE_LEN, "name");
        span.name = r.string("Span.name");
        break;
      case 6:
        r.expect(f, WIRE_VARINT, "kind");
        span.kind = r.int32();
        break;
      case 7:
        r.expect(f, WIRE_FIXED64, "start_time_unix_nano");
        span.startTimeUnixNano = r.fixed64();
        break;
      case 8:
        r.expect(f, WIRE_FIXED64, "end_time_unix_nano");
        span.endTimeUnixNano = r.fixed64();
        break;
      case 9:
        readKeyValueInto(r, f, span.attributes, 0);
        break;
      case 11:
        r.expect(f, WIRE_LEN, "events");
        budget.take();
        span.events.push(readSpanEvent(r.message("Span.Event")));
        break;
      case 15:
        r.expect(f, WIRE_LEN, "status");
        span.status = readStatus(r.message("Status"));
        break;
      default:
        r.skip(f);
    }
  }
  return span;
}

function readSpanEvent(r: WireReader): SpanEvent {
  const event: SpanEvent = { timeUnixNano: 0n, name: "", attributes: {} };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 1) {
      r.expect(f, WIRE_FIXED64, "time_unix_nano");
      event.timeUnixNano = r.fixed64();
    } else if (f.number === 2) {
      r.expect(f, WIRE_LEN, "name");
      event.name = r.string("Span.Event.name");
    } else if (f.number === 3) readKeyValueInto(r, f, event.attributes, 0);
    else r.skip(f);
  }
  return event;
}

function readStatus(r: WireReader): Span["status"] {
  const status = { code: 0, message: "" };
  while (!r.done()) {
    const f = r.next();
    if (f.number === 2) {
      r.expect(f, WIRE_LEN, "message");
      status.message = r.string("Status.message");
    } else if (f.number === 3) {
      r.expect(f, WIRE_VARINT, "code");
      status.code = r.int32();
    } else r.skip(f);
  }
  return status;
}

function readLogRecord(r: WireReader): LogRecord {
  const log: LogRecord = {
    timeUnixNano: 0n,
    observedTimeUnixNano: 0n,
    severityNumber: 0,
    severityText: "",
    body: undefined,
    attributes: {},
    traceId: "",
    spanId: "",
    eventName: "",
  };
  while (!r.done()) {
    const f = r.next();
    switch (f.number) {
      case 1:
        r.expect(f, WIRE_FIXED64, "time_unix_nano");
        log.timeUnixNano = r.fixed64();
        break;
      case 11:
        r.expect(f, WIRE_FIXED64, "observed_time_unix_nano");
        log.observedTimeUnixNano = r.fixed64();
        break;
      case 2:
        r.expect(f, WIRE_VARINT, "severity_number");
        log.severityNumber = r.int32();
        break;
      case 3:
        r.expect(f, WIRE_LEN, "severity_text");
        log.severityText = r.string("LogRecord.severity_text");
        break;
      case 5:
        r.expect(f, WIRE_LEN, "body");
        log.body = readAnyValue(r.message("AnyValue"), 0);
        break;
      case 6:
        readKeyValueInto(r, f, log.attributes, 0);
        break;
      case 9:
        r.expect(f, WIRE_LEN, "trace_id");
        log.traceId = hexOfBytes(r.bytes());
        break;
      case 10:
        r.expect(f, WIRE_LEN, "span_id");
        log.spanId = hexOfBytes(r.bytes());
        break;
      case 12:
        r.expect(f, WIRE_LEN, "event_name");
        log.eventName = r.string("LogRecord.event_name");
        break;
      default:
        r.skip(f);
    }
  }
  return log;
}

/** A KeyValue field (`attributes`, or a kvlist's `values`) into `into`. */
function readKeyValueInto(r: WireReader, f: Field, into: Record<string, JsonValue>, depth: number): void {
  r.expect(f, WIRE_LEN, "attributes");
  const kv = r.message("KeyValue");
  let key = "";
  let value: JsonValue = null;
  while (!kv.done()) {
    const g = kv.next();
    if (g.number === 1) {
      kv.expect(g, WIRE_LEN, "key");
      key = kv.string("KeyValue.key");
    } else if (g.number === 2) {
      kv.expect(g, WIRE_LEN, "value");
      value = readAnyValue(kv.message("AnyValue"), depth);
    } else kv.skip(g);
  }
  // Defined as an own property: a key like "__proto__" stays a plain key.
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

function readAnyValue(r: WireReader, depth: number): JsonValue {
  if (depth >= MAX_VALUE_DEPTH) throw new WireError(`${r.what}: attribute values nest deeper than ${MAX_VALUE_DEPTH} levels`);
  let value: JsonValue = null;
  while (!r.done()) {
    const f = r.next();
    switch (f.number) {
      case 1:
        r.expect(f, WIRE_LEN, "string_value");
        value = r.string("AnyValue.string_value");
        break;
      case 2:
        r.expect(f, WIRE_VARINT, "bool_value");
        value = r.bool();
        break;
      case 3:
        r.expect(f, WIRE_VARINT, "int_value");
        value = intValue(r.int64());
        break;
      case 4:
        r.expect(f, WIRE_FIXED64, "double_value");
        value = doubleValue(r.double());
        break;
      case 5: {
        r.expect(f, WIRE_LEN, "array_value");
        const array = r.message("ArrayValue");
        const items: JsonValue[] = [];
        while (!array.done()) {
          const g = array.next();
          if (g.number === 1) {
            array.expect(g, WIRE_LEN, "values");
            items.push(readAnyValue(array.message("AnyValue"), depth + 1));
          } else array.skip(g);
        }
        value = items;
        break;
      }
      case 6: {
        r.expect(f, WIRE_LEN, "kvlist_value");
        const list = r.message("KeyValueList");
        const object: Record<string, JsonValue> = {};
        while (!list.done()) {
          const g = list.next();
          if (g.number === 1) readKeyValueInto(list, g, object, depth + 1);
          else list.skip(g);
        }
        value = object;
        break;
      }
      case 7:
        r.expect(f, WIRE_LEN, "bytes_value");
        value = bytesValue(r.bytes());
        break;
      default:
        r.skip(f);
    }
  }
  return value;
}
