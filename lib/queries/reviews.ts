import { queryOptions } from "@tanstack/react-query";
import type { TReviewUpdate } from "@/lib/contracts";
import { reviewsApi } from "@/lib/endpoints/reviews";
import { queryInput } from "./api-input";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";
import { reviewerApiInput, type ReviewerFilters } from "./reviewer-url";
import { runKeys } from "./runs";

export const reviewKeys = {
  progress: (filters: Omit<ReviewerFilters, "cursor" | "sort" | "reviewed">) => ["reviewer", "progress", filters] as const,
  run: (runId: string) => [...runKeys.run(runId), "reviews"] as const,
  review: (runId: string, reviewKey: string) => [...runKeys.run(runId), "reviews", reviewKey] as const,
  trends: (window: { tz: string; from?: string; to?: string }) => ["trends", "reviews", window] as const,
};

/** How much of the queue over the filters is reviewed (the filters without their order, page or `reviewed`). */
export function reviewProgressQuery(filters: ReviewerFilters) {
  const { cursor: _cursor, sort: _sort, reviewed: _reviewed, ...rest } = filters;
  const input = { path: {}, query: reviewerApiInput(rest) };
  return withEndpoint(
    reviewsApi.progress,
    input,
    queryOptions({ queryKey: reviewKeys.progress(rest), queryFn: endpointFetch(reviewsApi.progress, input) }),
  );
}

/** The run's reviews with a verdict or an assignee (the run page's first page). */
export function runReviewsQuery(runId: string) {
  const input = { path: { runId }, query: {} };
  return withEndpoint(
    reviewsApi.runReviews,
    input,
    queryOptions({ queryKey: reviewKeys.run(runId), queryFn: endpointFetch(reviewsApi.runReviews, input) }),
  );
}

/** One candidate's review as it stands (under the run's reviews: a change of them invalidates it too). */
export function reviewQuery(runId: string, reviewKey: string) {
  const input = { path: { runId, reviewKey }, query: {} };
  return withEndpoint(
    reviewsApi.review,
    input,
    queryOptions({ queryKey: reviewKeys.review(runId, reviewKey), queryFn: endpointFetch(reviewsApi.review, input) }),
  );
}

/** Verdicts per week in the trends' window. */
export function reviewTrendsQuery(window: { tz: string; from?: string; to?: string }) {
  const input = { path: {}, query: queryInput(window) };
  return withEndpoint(
    reviewsApi.trends,
    input,
    queryOptions({ queryKey: reviewKeys.trends(window), queryFn: endpointFetch(reviewsApi.trends, input) }),
  );
}

export function updateReview(runId: string, reviewKey: string, body: TReviewUpdate) {
  return callEndpoint(reviewsApi.update, { path: { runId, reviewKey } }, body);
}
