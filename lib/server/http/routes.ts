import "server-only";
import { MAX_BATCH_BYTES, MAX_BATCH_EVENTS, ZEventsQuery, ZExportFormat, ZIngestRequest } from "@/lib/contracts";
import { DomainError, parseWith } from "@/lib/server/errors";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import {
  runFacetsLoader,
  runListLoader,
  runSummaryLoader,
  runTimelineLoader,
  runTriageLoader,
  turnDetailLoader,
} from "@/lib/server/loaders/runs";
import { exportRuns } from "@/lib/server/runs/export-runs";
import { listRunEvents, openDecisionsDocument } from "@/lib/server/runs/run-reads";
import { streamedDocument } from "@/lib/server/export/streamed-download";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { loaderRoute } from "./loader-route";
import { queryOf, readJsonBody, runIdOf } from "./request";
import { scheduleRebuildsOf } from "./schedule-rebuilds";

type RunParams = { runId: string };

/**
 * Ingest answers go out uncompressed (`no-transform` tells the server's compression to leave them):
 * gzip costs the server more per batch than the few kilobytes it saves (the request, ten times
 * larger, arrives uncompressed anyway).
 */
const INGEST_ANSWER_HEADERS = { "cache-control": "no-store, no-transform" };

/** POST /api/v1/ingest — 207 with one result per event, in order. */
export const ingestRoute = apiRoute(async ({ request, db, auth }) => {
  const raw = await readJsonBody(request, MAX_BATCH_BYTES);
  const count = (raw as { batch?: unknown } | null)?.batch;
  if (Array.isArray(count) && count.length > MAX_BATCH_EVENTS) {
    throw new DomainError("too_large", `the batch has ${count.length} events; the limit is ${MAX_BATCH_EVENTS} per request`, "batch");
  }
  const body = parseWith(ZIngestRequest, raw, "body");
  const response = await ingestBatch(db, auth.projectId, body.batch, { onStored: scheduleRebuildsOf(auth.projectId) });
  return json(207, response, INGEST_ANSWER_HEADERS);
});

/** GET /api/v1/runs */
export const listRunsRoute = loaderRoute(runListLoader);

/**
 * GET /api/v1/runs/export?format=csv|json — the list's filters and sort, every run, streamed as a
 * download. Every parameter is checked and the first page read before the answer starts (400/503 as
 * JSON); a later failure ends the download with an error marker (lib/server/export/streamed-download.ts).
 */
export const exportRunsRoute = apiRoute(async ({ request, db, auth }) => {
  const { format, ...filters } = queryOf(request);
  const { format: chosen } = parseWith(ZExportFormat, { format }, "query");
  return exportRuns(db, auth.projectId, runListLoader.parse({ query: filters }).query, chosen);
});

/** GET /api/v1/facets — the agents, models and statuses the list can be filtered by. */
export const runFacetsRoute = loaderRoute(runFacetsLoader);

/** GET /api/v1/runs/:runId */
export const runSummaryRoute = loaderRoute(runSummaryLoader);

/**
 * GET /api/v1/runs/:runId/decisions — the stored decisions' JSON text, streamed a stored chunk at a
 * time (openDecisionsDocument); `x-cuescope-stale-events` says how many events it does not include yet.
 */
export const runDecisionsRoute = apiRoute<RunParams>(async ({ request, params, db, auth }) => {
  const document = await openDecisionsDocument(db, auth.projectId, runIdOf(params, request));
  const headers = { "x-cuescope-stale-events": String(document.staleEvents) };
  if (request.method === "HEAD") {
    // Next answers HEAD with GET's handler and never reads the body: nothing to hold the read open for.
    document.close();
    return new Response(null, {
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
    });
  }
  return streamedDocument(document, { label: "decisions download", headers });
});

/** GET /api/v1/runs/:runId/events */
export const runEventsRoute = apiRoute<RunParams>(async ({ request, params, db, auth }) =>
  listRunEvents(db, auth.projectId, runIdOf(params, request), parseWith(ZEventsQuery, queryOf(request), "query")),
);

/** GET /api/v1/runs/:runId/turns/:turn */
export const turnDetailRoute = loaderRoute(turnDetailLoader);

/** GET /api/v1/runs/:runId/timeline */
export const runTimelineRoute = loaderRoute(runTimelineLoader);

/** GET /api/v1/runs/:runId/triage */
export const runTriageRoute = loaderRoute(runTriageLoader);
