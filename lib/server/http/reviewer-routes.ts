import "server-only";
import { ZExportFormat } from "@/lib/contracts";
import { reviewerCandidatesLoader, reviewerFunnelLoader } from "@/lib/server/loaders/reviewer";
import { exportReviewerCandidates } from "@/lib/server/reviewer/export-candidates";
import { apiRoute } from "./api-route";
import { loaderRoute } from "./loader-route";
import { queryOf } from "./request";
import { parseWith } from "@/lib/server/errors";

/** GET /api/v1/reviewer/candidates */
export const reviewerCandidatesRoute = loaderRoute(reviewerCandidatesLoader);

/**
 * GET /api/v1/reviewer/candidates/export?format=csv|json — the same filters, streamed as a download.
 * Every parameter is checked and the first page read before the answer starts (400/503 as JSON);
 * a later failure ends the download with an error marker (see exportReviewerCandidates).
 */
export const reviewerExportRoute = apiRoute(async ({ request, db, auth }) => {
  const { format, ...filters } = queryOf(request);
  const { format: chosen } = parseWith(ZExportFormat, { format }, "query");
  return exportReviewerCandidates(db, auth.projectId, reviewerCandidatesLoader.parse({ query: filters }).query, chosen);
});

/** GET /api/v1/reviewer/funnel — the funnel over the same filters. */
export const reviewerFunnelRoute = loaderRoute(reviewerFunnelLoader);
