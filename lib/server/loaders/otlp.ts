import "server-only";
import { ingestApi } from "@/lib/endpoints/ingest";
import { listOtlpRecords } from "@/lib/server/otlp/list-records";
import { defineLoader } from "./define-loader";

/** A page of the run's OpenTelemetry records, with its counts and token sums. */
export const runOtlpRecordsLoader = defineLoader(ingestApi.otlpRecords, (db, projectId, { path, query }) =>
  listOtlpRecords(db, projectId, path.runId, query),
);
