import { ZExportFormat, ZReviewerCandidatesQuery } from "../../contracts";
import { exportReviewerCandidates } from "../reviewer/export-candidates";
import { getReviewerFunnel } from "../reviewer/funnel";
import { listReviewerCandidates } from "../reviewer/list-candidates";
import { apiRoute } from "./api-route";
import { parseWith, queryOf } from "./request";

/** GET /api/v1/reviewer/candidates */
export const reviewerCandidatesRoute = apiRoute(async ({ request, db, auth }) =>
  listReviewerCandidates(db, auth.projectId, parseWith(ZReviewerCandidatesQuery, queryOf(request), "query")),
);

/** GET /api/v1/reviewer/candidates/export?format=csv|json — the same filters, streamed as a download. */
export const reviewerExportRoute = apiRoute(async ({ request, db, auth }) => {
  const { format, ...filters } = queryOf(request);
  const { format: chosen } = parseWith(ZExportFormat, { format }, "query");
  return exportReviewerCandidates(db, auth.projectId, parseWith(ZReviewerCandidatesQuery, filters, "query"), chosen);
});

/** GET /api/v1/reviewer/funnel — the funnel over the same filters. */
export const reviewerFunnelRoute = apiRoute(async ({ request, db, auth }) =>
  getReviewerFunnel(db, auth.projectId, parseWith(ZReviewerCandidatesQuery, queryOf(request), "query")),
);
