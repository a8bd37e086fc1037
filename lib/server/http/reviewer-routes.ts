import "server-only";
import { ZExportFormat, ZReviewerCandidatesQuery, type TReviewerCandidatesQuery } from "@/lib/contracts";
import { exportReviewerCandidates } from "@/lib/server/reviewer/export-candidates";
import { getReviewerFunnel } from "@/lib/server/reviewer/funnel";
import { listReviewerCandidates } from "@/lib/server/reviewer/list-candidates";
import { apiRoute } from "./api-route";
import { parseWith, queryOf } from "./request";

/**
 * The Reviewer filters of a query string. ZReviewerCandidatesQuery checks every parameter before
 * the database is asked (text without NUL, instants in years 0001–9999, plain-digit limits,
 * cursors): a bad value is a 400 naming it, never a database error.
 */
function reviewerQuery(raw: Record<string, string>): TReviewerCandidatesQuery {
  return parseWith(ZReviewerCandidatesQuery, raw, "query");
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
