import { queryOptions } from "@tanstack/react-query";
import { ZReviewerCandidatesResponse, ZReviewerFunnel } from "@/lib/contracts";
import { apiGet, queryString } from "./api-fetch";
import { withApiInput } from "./api-input";
import { REVIEWER_PAGE_SIZE, reviewerApiInput, type ReviewerFilters } from "./reviewer-url";

/** Query keys: one factory, so invalidation and prefetch agree with the hooks. */
export const reviewerKeys = {
  all: ["reviewer"] as const,
  candidates: (filters: ReviewerFilters, pageSize: number) => ["reviewer", "candidates", filters, pageSize] as const,
  funnel: (filters: Omit<ReviewerFilters, "cursor" | "sort">) => ["reviewer", "funnel", filters] as const,
};

/** One page of Reviewer candidates (REVIEWER_PAGE_SIZE rows unless told) with these filters. */
export function reviewerCandidatesQuery(filters: ReviewerFilters, pageSize: number = REVIEWER_PAGE_SIZE) {
  const input = { path: {}, query: reviewerApiInput(filters, { limit: pageSize }) };
  return withApiInput(
    input,
    queryOptions({
      queryKey: reviewerKeys.candidates(filters, pageSize),
      queryFn: ({ signal }) => apiGet(`/api/v1/reviewer/candidates${queryString(input.query)}`, ZReviewerCandidatesResponse, signal),
    }),
  );
}

/** The funnel over every candidate that matches the filters (the cursor and the order play no part). */
export function reviewerFunnelQuery(filters: ReviewerFilters) {
  const { cursor: _cursor, sort: _sort, ...rest } = filters;
  const input = { path: {}, query: reviewerApiInput(rest) };
  return withApiInput(
    input,
    queryOptions({
      queryKey: reviewerKeys.funnel(rest),
      queryFn: ({ signal }) => apiGet(`/api/v1/reviewer/funnel${queryString(input.query)}`, ZReviewerFunnel, signal),
    }),
  );
}
