import { queryOptions } from "@tanstack/react-query";
import { reviewerApi } from "@/lib/endpoints/reviewer";
import { endpointFetch, withEndpoint } from "./endpoint-query";
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
  return withEndpoint(
    reviewerApi.candidates,
    input,
    queryOptions({ queryKey: reviewerKeys.candidates(filters, pageSize), queryFn: endpointFetch(reviewerApi.candidates, input) }),
  );
}

/** The funnel over every candidate that matches the filters (the cursor and the order play no part). */
export function reviewerFunnelQuery(filters: ReviewerFilters) {
  const { cursor: _cursor, sort: _sort, ...rest } = filters;
  const input = { path: {}, query: reviewerApiInput(rest) };
  return withEndpoint(
    reviewerApi.funnel,
    input,
    queryOptions({ queryKey: reviewerKeys.funnel(rest), queryFn: endpointFetch(reviewerApi.funnel, input) }),
  );
}
