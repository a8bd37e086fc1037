import { z } from "zod";
import {
  MAX_BATCH_BYTES,
  MAX_BATCH_EVENTS,
  ZEvent,
  ZIngestRequest,
  ZIngestResponse,
  ZOtlpRecordsQuery,
  ZOtlpRecordsResponse,
  ZRunPathParams,
} from "@/lib/contracts";
import { endpoint, type AnyEndpoint } from "./endpoint";

const MB = MAX_BATCH_BYTES / (1024 * 1024);

/**
 * The ingest body as documented: ZIngestRequest takes `batch` as unknown items because the server
 * validates each event on its own (a bad one loses no good one), but each item is meant to be an Event.
 */
export const ZIngestRequestDoc = ZIngestRequest.extend({ batch: z.array(ZEvent).max(MAX_BATCH_EVENTS) });

/** Sending telemetry: JSON batches (contract §4) and OTLP/HTTP (docs/contract/otlp.md). */
export const ingestApi = {
  ingest: endpoint({
    id: "ingestEvents",
    access: "ingest",
    method: "POST",
    path: "/api/v1/ingest",
    tag: "Ingest",
    summary: "Send a batch of events",
    description:
      `Stores up to ${MAX_BATCH_EVENTS} events (at most ${MB} MB). Each event is validated on its own: ` +
      "the answer is 207 with one result per event, in order (`created`, `duplicate` for a re-send of the same event, `error` naming the field). " +
      "Event ids are chosen by the client, so a batch can be re-sent safely. The run's decisions are rebuilt in the background.",
    auth: "key",
    body: {
      schema: ZIngestRequest,
      documentedAs: ZIngestRequestDoc,
      maxBytes: MAX_BATCH_BYTES,
      description: "`batch`: the events, in any order.",
    },
    responses: [{ status: 207, description: "One result per event, and their counts.", schema: ZIngestResponse }],
    errors: { 413: `The body is larger than ${MB} MB, or the batch holds more than ${MAX_BATCH_EVENTS} events.` },
  }),
  otlpTraces: otlpExport("traces"),
  otlpLogs: otlpExport("logs"),
  otlpRecords: endpoint({
    id: "listRunOtlpRecords",
    method: "GET",
    path: "/api/v1/runs/{runId}/otlp",
    tag: "OpenTelemetry",
    summary: "A run's OpenTelemetry records",
    description:
      "What OTLP ingestion kept for the run besides telemetry events: model requests (GenAI spans: model, times, provider-reported tokens, in tokens) " +
      "and spans and log records kept raw, in time order, in pages (`nextCursor`), with the run's counts by kind and token sums. " +
      "`runId` may also be a trace id that holds records but no telemetry run.",
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZOtlpRecordsQuery,
    paramDescriptions: { kind: "Only records of this kind: `model_request`, `span` or `log`." },
    responses: [{ status: 200, description: "A page of the run's records, and its counts.", schema: ZOtlpRecordsResponse }],
    errors: { 404: "No run and no OpenTelemetry records of that id in the key's project." },
  }),
};

/** `POST /api/v1/otlp/v1/traces` and `/v1/logs` (docs/contract/otlp.md). */
function otlpExport(signal: "traces" | "logs"): AnyEndpoint {
  const [request, response, items] =
    signal === "traces"
      ? ["ExportTraceServiceRequest", "ExportTraceServiceResponse", "spans"]
      : ["ExportLogsServiceRequest", "ExportLogsServiceResponse", "log records"];
  const both = [
    { mediaType: "application/x-protobuf", schema: "binary" as const },
    { mediaType: "application/json", schema: "object" as const },
  ];
  return endpoint({
    id: signal === "traces" ? "otlpExportTraces" : "otlpExportLogs",
    access: "ingest",
    method: "POST",
    path: `/api/v1/otlp/v1/${signal}`,
    tag: "OpenTelemetry",
    summary: `OTLP/HTTP: export ${signal}`,
    description:
      `An OpenTelemetry exporter's ${request} (point the exporter at \`<server>/api/v1/otlp\`). ` +
      "A span event or log record with a `cuescope.type` attribute is one telemetry event, validated and stored exactly as by `POST /api/v1/ingest`; " +
      "GenAI spans are kept as model requests; anything else is kept raw for its run (docs/contract/otlp.md). " +
      `The key may be sent as \`Authorization: Bearer <key>\`, \`x-api-key: <key>\` or HTTP Basic with the key as the password. ` +
      "`Content-Encoding: gzip` is accepted. Errors answer a protobuf request with a google.rpc.Status, a JSON one with the usual error body.",
    auth: "exporter",
    body: {
      content: both,
      maxBytes: MAX_BATCH_BYTES,
      description: `The ${request}, in protobuf or OTLP/JSON; the limit holds as sent and again once gunzipped.`,
    },
    responses: [
      {
        status: 200,
        description:
          `The ${response} in the request's encoding: empty when everything was stored (or known already), else \`partialSuccess\` ` +
          `with how many ${items} were rejected and an \`errorMessage\` naming each rejected part and why.`,
        content: both,
      },
    ],
    errors: {
      400: "The body does not decode as the request (the message says where and why), or is not valid gzip.",
      413: `The body is larger than ${MB} MB, as sent or once gunzipped.`,
      415: "The body is neither `application/x-protobuf` nor `application/json`, or its Content-Encoding is neither gzip nor none.",
    },
  });
}
