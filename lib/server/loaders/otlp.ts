import "server-only";
import { ZOtlpRecordsQuery, ZRunPathParams } from "@/lib/contracts";
import { listOtlpRecords } from "@/lib/server/otlp/list-records";
import { defineLoader } from "./define-loader";

/** GET /api/v1/runs/:runId/otlp: a page of the run's OpenTelemetry records, with its counts and token sums. */
export const runOtlpRecordsLoader = defineLoader({
  path: ZRunPathParams,
  query: ZOtlpRecordsQuery,
  load: (db, projectId, { path, query }) => listOtlpRecords(db, projectId, path.runId, query),
});
