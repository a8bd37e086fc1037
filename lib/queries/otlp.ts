import { queryOptions } from "@tanstack/react-query";
import { ZOtlpRecordsResponse, type TOtlpRecordKind } from "@/lib/contracts";
import { apiGet } from "./api-fetch";
import { queryInput, withApiInput } from "./api-input";
import { apiRunPath } from "./paths";
import { runKeys } from "./runs";

/** A page of a run's OpenTelemetry records (docs/contract/otlp.md#reading-them): counts, token sums, records in time order. */
export function runOtlpRecordsQuery(runId: string, options: { kind?: TOtlpRecordKind } = {}) {
  const input = { path: { runId }, query: queryInput(options) };
  return withApiInput(
    input,
    queryOptions({
      queryKey: [...runKeys.run(runId), "otlp", options] as const,
      queryFn: ({ signal }) => apiGet(apiRunPath(runId, "/otlp", input.query), ZOtlpRecordsResponse, signal),
    }),
  );
}
