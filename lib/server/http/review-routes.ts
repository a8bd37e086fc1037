import "server-only";
import { reviewsApi } from "@/lib/endpoints/reviews";
import { updateReview } from "@/lib/server/reviews/update-review";
import { endpointRoute } from "./endpoint-route";

/** A verdict, comment or assignment on one Reviewer candidate (the reads are lib/server/loaders/reviews.ts). */
export const updateReviewRoute = endpointRoute(reviewsApi.update, ({ input, db, auth }) =>
  updateReview(db, auth, input.path.runId, input.path.reviewKey, input.body),
);
