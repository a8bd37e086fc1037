import "server-only";
import { MAX_BATCH_BYTES, MAX_BATCH_EVENTS, ZIngestRequest } from "@/lib/contracts";
import { ingestApi } from "@/lib/endpoints/ingest";
import { runsApi } from "@/lib/endpoints/runs";
import { DomainError, parseWith } from "@/lib/server/errors";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { exportRuns } from "@/lib/server/runs/export-runs";
import { listRunEvents, openDecisionsDocument } from "@/lib/server/runs/run-reads";
import { streamedDocument } from "@/lib/server/export/streamed-download";
import { answer, endpointRoute } from "./endpoint-route";
import { readJsonBody } from "./request";
import { scheduleRebuildsOf } from "./schedule-rebuilds";

/**
 * The ingest and runs endpoints that are not a loader's read (lib/server/loaders/runs.ts serves
 * those): the batch, the downloads and the raw events.
 */

/**
 * Ingest answers go out uncompressed (`no-transform` tells the server's compression to leave them):
 * gzip costs the server more per batch than the few kilobytes it saves (the request, ten times
 * larger, arrives uncompressed anyway).
 */
const INGEST_ANSWER_HEADERS = { "cache-control": "no-store, no-transform" };

/** 207 with one result per event, in order. The body is read here: a batch over the count limit is a 413, not a 400. */
export const ingestRoute = endpointRoute(
  ingestApi.ingest,
  async ({ request, db, auth }) => {
    const raw = await readJsonBody(request, MAX_BATCH_BYTES);
    const count = (raw as { batch?: unknown } | null)?.batch;
    if (Array.isArray(count) && count.length > MAX_BATCH_EVENTS) {
      throw new DomainError("too_large", `the batch has ${count.length} events; the limit is ${MAX_BATCH_EVENTS} per request`, "batch");
    }
    const body = parseWith(ZIngestRequest, raw, "body");
    const response = await ingestBatch(db, auth.projectId, body.batch, { onStored: scheduleRebuildsOf(auth.projectId) });
    return answer(207, response, INGEST_ANSWER_HEADERS);
  },
  { rawBody: true },
);

/**
 * The list's filters and sort, every run, streamed as a download. Every parameter is checked and
 * the first page read before the answer starts (400/503 as JSON); a later failure ends the download
 * with an error marker (lib/server/export/streamed-download.ts).
 */
export const exportRunsRoute = endpointRoute(runsApi.export, async ({ input, db, auth }) => {
  const { format, cursor: _cursor, limit: _limit, ...filters } = input.query;
  return exportRuns(db, auth.projectId, filters, format);
});

/**
 * The stored decisions' JSON text, streamed a stored chunk at a time (openDecisionsDocument);
 * `x-cuescope-stale-events` says how many events it does not include yet.
 */
export const runDecisionsRoute = endpointRoute(
  runsApi.decisions,
  async ({ request, input, db, auth, direct }) => {
    // Written out by direct.ts, a page's memory is used again once the socket took it.
    const document = await openDecisionsDocument(db, auth.projectId, input.path.runId, { reuseMemory: direct });
    const headers = { "x-cuescope-stale-events": String(document.staleEvents) };
    if (request.method === "HEAD") {
      // A HEAD is answered by the GET's route (lib/server/http/api.ts) and its body never read: nothing to hold the read open for.
      document.close();
      return new Response(null, {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
      });
    }
    return streamedDocument(document, { label: "decisions download", headers });
  },
  { direct: true },
);

/** A page of the run's stored events, optionally of one turn. */
export const runEventsRoute = endpointRoute(runsApi.events, ({ input, db, auth }) =>
  listRunEvents(db, auth.projectId, input.path.runId, input.query),
);
