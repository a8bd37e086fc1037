import { fingerprint } from "@/lib/core";
import { CUESCOPE_TYPE, isCuescopeEvent, telemetryEvent, valueLabel } from "./cuescope-event";
import { idProblem, usableId } from "./ids";
import { emptyMapped, type Mapped } from "./mapped";
import type { Attributes, JsonValue, LogRecord, LogsRequest } from "./model";
import { boundData, boundShared, runIdOf, storableJson, turnOf, type SharedParts } from "./records";
import { nanosKey, nanosToIso } from "./time";

/**
 * Maps an ExportLogsServiceRequest (docs/contract/otlp.md#mapping): a log record carrying
 * cuescope.type is a telemetry v1 event; any other is kept raw, attached to its cuescope.run_id,
 * else its trace id. A raw record with neither has no run and is refused.
 */
export function mapLogs(request: LogsRequest): Mapped {
  const out = emptyMapped();
  for (const resourceLogs of request.resourceLogs) {
    for (const { scope, logRecords } of resourceLogs.scopeLogs) {
      const shared = boundShared(scope, resourceLogs.resource);
      for (const log of logRecords) mapLog(out, out.items++, log, shared, resourceLogs.resource);
    }
  }
  return out;
}

/**
 * A log record's identity when it names none: its time and a fingerprint of everything it holds,
 * so exporting the same record again gives the same id (and a different record another one). Its ids
 * are taken as usable (all zeros is "", as OTLP/JSON has always been read), so protobuf and OTLP/JSON
 * give the same key.
 */
function derivedKey(log: LogRecord, time: bigint, ids: { traceId: string; spanId: string }): string {
  const content = {
    time: log.timeUnixNano.toString(),
    observed: log.observedTimeUnixNano.toString(),
    severity: log.severityNumber,
    severityText: log.severityText,
    eventName: log.eventName,
    traceId: ids.traceId,
    spanId: ids.spanId,
    body: log.body ?? null,
    attributes: log.attributes,
  };
  return `${nanosKey(time)}-${fingerprint(content)}`;
}

function mapLog(out: Mapped, item: number, log: LogRecord, shared: SharedParts, resource: Attributes): void {
  const time = log.timeUnixNano !== 0n ? log.timeUnixNano : log.observedTimeUnixNano;
  const cuescopeEvent = isCuescopeEvent(log.attributes);
  const origin = cuescopeEvent
    ? `log record ${item} (${valueLabel(log.attributes[CUESCOPE_TYPE], 40)})`
    : `log record ${item}${log.eventName ? ` "${log.eventName.slice(0, 60)}"` : ""}`;
  // A log record's ids are optional, but when sent they are 16 and 8 bytes (./ids.ts).
  const idsProblem = idProblem(log.traceId, "trace") ?? idProblem(log.spanId, "span");
  if (idsProblem !== null) {
    out.rejections.push({ item, origin, message: idsProblem });
    return;
  }
  const traceId = usableId(log.traceId, "trace");
  const spanId = usableId(log.spanId, "span");
  // The fingerprint is worked out only where it is used: not for an event that names its cuescope.id.
  const key = () => derivedKey(log, time, { traceId, spanId });
  if (cuescopeEvent) {
    const mapped = telemetryEvent(log.attributes, { runIdFrom: [resource], timeUnixNano: time, derivedId: () => `otel-log-${key()}` });
    if (mapped.ok) out.events.push({ item, origin, event: mapped.event });
    else out.rejections.push({ item, origin, message: mapped.message });
    return;
  }
  const run = runIdOf(traceId, log.attributes, resource);
  if (!run.ok) {
    out.rejections.push({ item, origin, message: run.message });
    return;
  }
  const runId = run.runId;
  if (runId === null) {
    out.rejections.push({ item, origin, message: "no cuescope.run_id and no trace id: there is no run to keep it with" });
    return;
  }
  if (time === 0n) {
    out.rejections.push({ item, origin, message: "a log record needs a time (timeUnixNano or observedTimeUnixNano) to be kept" });
    return;
  }
  const data: { [key: string]: JsonValue } = {
    time: nanosToIso(time),
    observedTime: log.observedTimeUnixNano === 0n ? null : nanosToIso(log.observedTimeUnixNano),
    severityNumber: log.severityNumber,
    severityText: log.severityText,
    eventName: log.eventName || null,
    traceId: traceId || null,
    spanId: spanId || null,
    body: log.body ?? null,
    attributes: log.attributes,
  };
  out.records.push({
    item,
    origin,
    kind: "log",
    runId,
    key: `log:${key()}`,
    ts: nanosToIso(time),
    turn: turnOf(log.attributes),
    data: boundData(
      { ...(storableJson(data) as { [key: string]: JsonValue }), scope: shared.scope, resource: shared.resource },
      shared.truncated,
    ),
  });
}
