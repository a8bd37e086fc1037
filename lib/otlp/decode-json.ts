import { doubleValue, intValue } from "./any-value";
import { ItemBudget } from "./limits";
import {
  MAX_VALUE_DEPTH,
  type Attributes,
  type JsonValue,
  type LogRecord,
  type LogsRequest,
  type ResourceLogs,
  type ResourceSpans,
  type Scope,
  type Span,
  type SpanEvent,
  type TracesRequest,
} from "./model";

/**
 * Decoders of OTLP/JSON (the protobuf messages in the proto3 JSON mapping, as OTLP/HTTP specifies):
 * lowerCamelCase field names (the .proto's snake_case names are accepted too), trace and span ids as
 * hex (kept as sent, lowercased: ./ids.ts checks them per record), 64-bit integers as strings or
 * numbers, enums as integers. Unknown fields are ignored; a value
 * of the wrong type throws OtlpJsonError naming its path.
 */
export class OtlpJsonError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = "OtlpJsonError";
  }
}

type Obj = Record<string, unknown>;

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A field by its JSON name or its .proto name; undefined and null are "not set". */
function field(obj: Obj, name: string): unknown {
  const value = Object.hasOwn(obj, name) ? obj[name] : Object.hasOwn(obj, snake(name)) ? obj[snake(name)] : undefined;
  return value === null ? undefined : value;
}

function object(value: unknown, path: string): Obj {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new OtlpJsonError(path, "expected an object");
  return value as Obj;
}

function array(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OtlpJsonError(path, "expected an array");
  return value;
}

function string(value: unknown, path: string): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw new OtlpJsonError(path, "expected a string");
  return value;
}

/** A 64-bit integer: a number or a decimal string. */
function int64(value: unknown, path: string, unsigned: boolean): bigint {
  if (value === undefined) return 0n;
  let n: bigint;
  if (typeof value === "number" && Number.isInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && /^-?\d{1,20}$/.test(value)) n = BigInt(value);
  else throw new OtlpJsonError(path, `expected an integer (a number or a decimal string), got ${JSON.stringify(value)?.slice(0, 40)}`);
  const [min, max] = unsigned ? [0n, 2n ** 64n - 1n] : [-(2n ** 63n), 2n ** 63n - 1n];
  if (n < min || n > max) throw new OtlpJsonError(path, `${n} is out of range for ${unsigned ? "a uint64" : "an int64"}`);
  return n;
}

function int32(value: unknown, path: string): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isInteger(value))
    throw new OtlpJsonError(path, "expected an integer (enums are sent as numbers)");
  return value;
}

/**
 * A trace or span id as hex, lowercased, whatever its length: each record's ids are checked when it
 * is mapped (./ids.ts), so an id of the wrong length or not in hex rejects that record alone, as it
 * does in protobuf, and not the whole export.
 */
function hexIdText(value: unknown, path: string): string {
  return string(value, path).toLowerCase();
}

function anyValue(value: unknown, path: string, depth: number): JsonValue {
  if (depth >= MAX_VALUE_DEPTH) throw new OtlpJsonError(path, `attribute values nest deeper than ${MAX_VALUE_DEPTH} levels`);
  const v = object(value, path);
  const set = (name: string) => field(v, name) !== undefined;
  if (set("stringValue")) return string(field(v, "stringValue"), `${path}.stringValue`);
  if (set("boolValue")) {
    const b = field(v, "boolValue");
    if (typeof b !== "boolean") throw new OtlpJsonError(`${path}.boolValue`, "expected true or false");
    return b;
  }
  if (set("intValue")) return intValue(int64(field(v, "intValue"), `${path}.intValue`, false));
  if (set("doubleValue")) {
    const d = field(v, "doubleValue");
    if (typeof d === "number") return doubleValue(d);
    if (d === "NaN" || d === "Infinity" || d === "-Infinity") return d;
    throw new OtlpJsonError(`${path}.doubleValue`, "expected a number");
  }
  if (set("arrayValue")) {
    const values = array(field(object(field(v, "arrayValue"), `${path}.arrayValue`), "values"), `${path}.arrayValue.values`);
    return values.map((item, i) => anyValue(item, `${path}.arrayValue.values[${i}]`, depth + 1));
  }
  if (set("kvlistValue")) {
    const values = array(field(object(field(v, "kvlistValue"), `${path}.kvlistValue`), "values"), `${path}.kvlistValue.values`);
    return keyValues(values, `${path}.kvlistValue.values`, depth + 1);
  }
  if (set("bytesValue")) return string(field(v, "bytesValue"), `${path}.bytesValue`);
  return null;
}

function keyValues(list: unknown[], path: string, depth: number): Attributes {
  const out: Attributes = {};
  list.forEach((item, i) => {
    const kv = object(item, `${path}[${i}]`);
    const key = string(field(kv, "key"), `${path}[${i}].key`);
    const value = anyValue(field(kv, "value"), `${path}[${i}].value`, depth);
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  });
  return out;
}

function attributes(obj: Obj, path: string): Attributes {
  return keyValues(array(field(obj, "attributes"), `${path}.attributes`), `${path}.attributes`, 0);
}

function scope(value: unknown, path: string): Scope {
  const s = object(value, path);
  return { name: string(field(s, "name"), `${path}.name`), version: string(field(s, "version"), `${path}.version`) };
}

function span(value: unknown, path: string, budget: ItemBudget): Span {
  budget.take();
  const s = object(value, path);
  const status = object(field(s, "status"), `${path}.status`);
  return {
    traceId: hexIdText(field(s, "traceId"), `${path}.traceId`),
    spanId: hexIdText(field(s, "spanId"), `${path}.spanId`),
    parentSpanId: hexIdText(field(s, "parentSpanId"), `${path}.parentSpanId`),
    name: string(field(s, "name"), `${path}.name`),
    kind: int32(field(s, "kind"), `${path}.kind`),
    startTimeUnixNano: int64(field(s, "startTimeUnixNano"), `${path}.startTimeUnixNano`, true),
    endTimeUnixNano: int64(field(s, "endTimeUnixNano"), `${path}.endTimeUnixNano`, true),
    attributes: attributes(s, path),
    events: array(field(s, "events"), `${path}.events`).map((e, i) => spanEvent(e, `${path}.events[${i}]`, budget)),
    status: {
      code: int32(field(status, "code"), `${path}.status.code`),
      message: string(field(status, "message"), `${path}.status.message`),
    },
  };
}

function spanEvent(value: unknown, path: string, budget: ItemBudget): SpanEvent {
  budget.take();
  const e = object(value, path);
  return {
    timeUnixNano: int64(field(e, "timeUnixNano"), `${path}.timeUnixNano`, true),
    name: string(field(e, "name"), `${path}.name`),
    attributes: attributes(e, path),
  };
}

function logRecord(value: unknown, path: string, budget: ItemBudget): LogRecord {
  budget.take();
  const l = object(value, path);
  const body = field(l, "body");
  return {
    timeUnixNano: int64(field(l, "timeUnixNano"), `${path}.timeUnixNano`, true),
    observedTimeUnixNano: int64(field(l, "observedTimeUnixNano"), `${path}.observedTimeUnixNano`, true),
    severityNumber: int32(field(l, "severityNumber"), `${path}.severityNumber`),
    severityText: string(field(l, "severityText"), `${path}.severityText`),
    body: body === undefined ? undefined : anyValue(body, `${path}.body`, 0),
    attributes: attributes(l, path),
    traceId: hexIdText(field(l, "traceId"), `${path}.traceId`),
    spanId: hexIdText(field(l, "spanId"), `${path}.spanId`),
    eventName: string(field(l, "eventName"), `${path}.eventName`),
  };
}

export function decodeTracesJson(value: unknown, budget = new ItemBudget()): TracesRequest {
  const root = object(value, "body");
  const resourceSpans = array(field(root, "resourceSpans"), "resourceSpans").map((rs, i): ResourceSpans => {
    const path = `resourceSpans[${i}]`;
    const o = object(rs, path);
    return {
      resource: attributes(object(field(o, "resource"), `${path}.resource`), `${path}.resource`),
      scopeSpans: array(field(o, "scopeSpans"), `${path}.scopeSpans`).map((ss, j) => {
        const p = `${path}.scopeSpans[${j}]`;
        const s = object(ss, p);
        return {
          scope: scope(field(s, "scope"), `${p}.scope`),
          spans: array(field(s, "spans"), `${p}.spans`).map((x, k) => span(x, `${p}.spans[${k}]`, budget)),
        };
      }),
    };
  });
  return { resourceSpans };
}

export function decodeLogsJson(value: unknown, budget = new ItemBudget()): LogsRequest {
  const root = object(value, "body");
  const resourceLogs = array(field(root, "resourceLogs"), "resourceLogs").map((rl, i): ResourceLogs => {
    const path = `resourceLogs[${i}]`;
    const o = object(rl, path);
    return {
      resource: attributes(object(field(o, "resource"), `${path}.resource`), `${path}.resource`),
      scopeLogs: array(field(o, "scopeLogs"), `${path}.scopeLogs`).map((sl, j) => {
        const p = `${path}.scopeLogs[${j}]`;
        const s = object(sl, p);
        return {
          scope: scope(field(s, "scope"), `${p}.scope`),
          logRecords: array(field(s, "logRecords"), `${p}.logRecords`).map((x, k) => logRecord(x, `${p}.logRecords[${k}]`, budget)),
        };
      }),
    };
  });
  return { resourceLogs };
}
