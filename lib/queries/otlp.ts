import { queryOptions } from "@tanstack/react-query";
import type { TOtlpRecordKind } from "@/lib/contracts";
import { ingestApi } from "@/lib/endpoints/ingest";
import { queryInput } from "./api-input";
import { endpointFetch, withEndpoint } from "./endpoint-query";
import { runKeys } from "./runs";

/** A page of a run's OpenTelemetry records (docs/contract/otlp.md#reading-them): counts, token sums, records in time order. */
export function runOtlpRecordsQuery(runId: string, options: { kind?: TOtlpRecordKind } = {}) {
  const input = { path: { runId }, query: queryInput(options) };
  return withEndpoint(
    ingestApi.otlpRecords,
    input,
    queryOptions({ queryKey: [...runKeys.run(runId), "otlp", options] as const, queryFn: endpointFetch(ingestApi.otlpRecords, input) }),
  );
}
