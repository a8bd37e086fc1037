/**
 * The OTLP data Cuescope reads, decoded from protobuf (./decode-proto.ts) or OTLP/JSON
 * (./decode-json.ts) into one shape. Attribute values are already JSON (./any-value.ts says how);
 * ids are lowercase hex as sent, of any length ("" = not set; ./ids.ts checks them when each record is
 * mapped); times are nanoseconds since the Unix epoch (0 = not set).
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Attributes by key (a key sent twice: the last value wins). */
export type Attributes = Record<string, JsonValue>;

export interface Scope {
  name: string;
  version: string;
}

export interface SpanEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: Attributes;
}

export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** SpanKind as its number (0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  events: SpanEvent[];
  /** StatusCode as its number (0 unset, 1 ok, 2 error). */
  status: { code: number; message: string };
}

export interface LogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  /** The body as JSON; undefined when not set. */
  body: JsonValue | undefined;
  attributes: Attributes;
  traceId: string;
  spanId: string;
  eventName: string;
}

export interface ScopeSpans {
  scope: Scope;
  spans: Span[];
}

export interface ResourceSpans {
  resource: Attributes;
  scopeSpans: ScopeSpans[];
}

export interface ScopeLogs {
  scope: Scope;
  logRecords: LogRecord[];
}

export interface ResourceLogs {
  resource: Attributes;
  scopeLogs: ScopeLogs[];
}

/** ExportTraceServiceRequest */
export interface TracesRequest {
  resourceSpans: ResourceSpans[];
}

/** ExportLogsServiceRequest */
export interface LogsRequest {
  resourceLogs: ResourceLogs[];
}

/** Nesting allowed inside one attribute value (arrays and key-value lists), as telemetry events allow (contract §4). */
export const MAX_VALUE_DEPTH = 32;
