import "server-only";
import { reviewerApi } from "@/lib/endpoints/reviewer";
import { viewerOf } from "@/lib/server/auth/keys";
import { exportReviewerCandidates } from "@/lib/server/reviewer/export-candidates";
import { endpointRoute } from "./endpoint-route";

/**
 * The candidates over the filters, streamed as a download (the candidates and the funnel are
 * lib/server/loaders/reviewer.ts). Every parameter is checked and the first page read before the
 * answer starts (400/503 as JSON); a later failure ends the download with an error marker.
 */
export const reviewerExportRoute = endpointRoute(reviewerApi.export, ({ input, db, auth }) => {
  const { format, limit: _limit, ...filters } = input.query;
  return exportReviewerCandidates(db, auth.projectId, filters, format, { viewer: viewerOf(auth) });
});
