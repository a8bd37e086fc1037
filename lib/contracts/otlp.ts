import { z } from "zod";
import { ZCursorParam, zIntParam } from "./params";

/**
 * What OTLP ingestion keeps besides telemetry events (docs/contract/otlp.md#stored-records), as
 * `GET /api/v1/runs/:runId/otlp` lists it.
 */
export const OTLP_RECORD_KINDS = ["model_request", "span", "log"] as const;
export const ZOtlpRecordKind = z.enum(OTLP_RECORD_KINDS, { error: `expected one of ${OTLP_RECORD_KINDS.join(", ")}` });

export const ZOtlpRecordsQuery = z.object({
  kind: ZOtlpRecordKind.optional(),
  cursor: ZCursorParam.optional(),
  limit: zIntParam(1, 500).default(100),
});

/** A model request's parsed fields (GenAI semantic conventions); tokens are the provider's, in tokens. */
export const ZOtlpModelRequest = z.object({
  operation: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  durationMs: z.number().nullable(),
});

export const ZOtlpRecord = z.object({
  kind: ZOtlpRecordKind,
  /** Unique in the project: `span:<traceId>:<spanId>` or `log:<time>-<fingerprint>`. */
  key: z.string(),
  runId: z.string(),
  /** The span's start or the log record's time (RFC 3339, milliseconds). */
  ts: z.string(),
  turn: z.number().nullable(),
  receivedAt: z.string(),
  /** Set for model requests only. */
  modelRequest: ZOtlpModelRequest.nullable(),
  /** The record as stored: ids, name, times, status, attributes, events, body, scope, resource. */
  data: z.record(z.string(), z.unknown()),
});

export const ZOtlpRecordsResponse = z.object({
  runId: z.string(),
  /** Every record of the run, by kind (whatever the page shows). */
  counts: z.object({ modelRequests: z.number(), spans: z.number(), logs: z.number() }),
  /** Sums over the run's model requests that reported them; provider-reported tokens, never bytes. */
  tokens: z.object({ input: z.number(), output: z.number() }),
  records: z.array(ZOtlpRecord),
  nextCursor: z.string().nullable(),
});

export type TOtlpRecordKind = z.infer<typeof ZOtlpRecordKind>;
export type TOtlpRecordsQuery = z.infer<typeof ZOtlpRecordsQuery>;
export type TOtlpModelRequest = z.infer<typeof ZOtlpModelRequest>;
export type TOtlpRecord = z.infer<typeof ZOtlpRecord>;
export type TOtlpRecordsResponse = z.infer<typeof ZOtlpRecordsResponse>;
