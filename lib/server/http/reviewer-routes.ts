import { ZExportFormat, ZReviewerCandidatesQuery, type TReviewerCandidatesQuery } from "../../contracts";
import { DomainError } from "../errors";
import { exportReviewerCandidates } from "../reviewer/export-candidates";
import { getReviewerFunnel } from "../reviewer/funnel";
import { listReviewerCandidates } from "../reviewer/list-candidates";
import { apiRoute } from "./api-route";
import { parseWith, queryOf } from "./request";

/** Years 0001–9999 (UTC), set with setUTCFullYear: Date.UTC maps years 0–99 to 1900–1999. */
const EARLIEST_MS = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST_MS = new Date(0).setUTCFullYear(10_000, 0, 1);

/**
 * The Reviewer filters of a query string, every one checked before the database is asked: besides
 * the contract, text PostgreSQL cannot hold (NUL) and instants outside the database's range are
 * 400 naming the parameter, not a database error.
 */
function reviewerQuery(raw: Record<string, string>): TReviewerCandidatesQuery {
  const query = parseWith(ZReviewerCandidatesQuery, raw, "query");
  for (const name of ["agent", "model", "runId", "cursor"] as const) {
    if (query[name]?.includes("\u0000")) throw new DomainError("invalid", `query.${name}: must not contain NUL characters`, name);
  }
  for (const name of ["from", "to"] as const) {
    const value = query[name];
    if (value === undefined) continue;
    const ms = Date.parse(value);
    if (!Number.isFinite(ms) || ms < EARLIEST_MS || ms >= LATEST_MS) {
      throw new DomainError("invalid", `query.${name}: expected an instant between years 0001 and 9999`, name);
    }
  }
  return query;
}

/** GET /api/v1/reviewer/candidates */
export const reviewerCandidatesRoute = apiRoute(async ({ request, db, auth }) =>
  listReviewerCandidates(db, auth.projectId, reviewerQuery(queryOf(request))),
);

/**
 * GET /api/v1/reviewer/candidates/export?format=csv|json — the same filters, streamed as a download.
 * Every parameter is checked and the first page read before the answer starts (400/503 as JSON);
 * a later failure ends the download with an error marker (see exportReviewerCandidates).
 */
export const reviewerExportRoute = apiRoute(async ({ request, db, auth }) => {
  const { format, ...filters } = queryOf(request);
  const { format: chosen } = parseWith(ZExportFormat, { format }, "query");
  return exportReviewerCandidates(db, auth.projectId, reviewerQuery(filters), chosen);
});

/** GET /api/v1/reviewer/funnel — the funnel over the same filters. */
export const reviewerFunnelRoute = apiRoute(async ({ request, db, auth }) =>
  getReviewerFunnel(db, auth.projectId, reviewerQuery(queryOf(request))),
);
