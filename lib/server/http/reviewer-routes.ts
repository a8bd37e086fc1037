import { ZReviewerCandidatesQuery } from "../../contracts";
import { listReviewerCandidates } from "../reviewer/list-candidates";
import { apiRoute } from "./api-route";
import { parseWith, queryOf } from "./request";

/** GET /api/v1/reviewer/candidates */
export const reviewerCandidatesRoute = apiRoute(async ({ request, db, auth }) =>
  listReviewerCandidates(db, auth.projectId, parseWith(ZReviewerCandidatesQuery, queryOf(request), "query")),
);
