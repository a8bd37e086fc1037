import "server-only";
import { reviewsApi } from "@/lib/endpoints/reviews";
import { reviewProgress } from "@/lib/server/reviewer/review-progress";
import { getReviewTrends } from "@/lib/server/reviews/review-trends";
import { getReview, listRunReviews } from "@/lib/server/reviews/run-reviews";
import { defineLoader } from "./define-loader";

/** The run's reviews with something said (the run page's reviews). */
export const runReviewsLoader = defineLoader(reviewsApi.runReviews, (db, projectId, { path, query }) =>
  listRunReviews(db, projectId, path.runId, query),
);

/** One candidate's review as it stands (the queue reads it again after a conflict). */
export const reviewLoader = defineLoader(reviewsApi.review, (db, projectId, { path }) =>
  getReview(db, projectId, path.runId, path.reviewKey),
);

/** The queue's progress over the filters ("12 of 40 reviewed"), and what is assigned to the signed-in person. */
export const reviewProgressLoader = defineLoader(reviewsApi.progress, (db, projectId, { query }, viewer) =>
  reviewProgress(db, projectId, query, viewer),
);

/** Verdicts per week beside the rules' findings (the trends page). */
export const reviewTrendsLoader = defineLoader(reviewsApi.trends, (db, projectId, { query }) => getReviewTrends(db, projectId, query));
