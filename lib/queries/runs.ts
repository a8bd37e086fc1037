import { queryOptions } from "@tanstack/react-query";
import {
  ZRunFacets,
  ZRunListResponse,
  ZRunSummary,
  ZRunTimeline,
  ZRunTriage,
  ZTurnDetail,
  type TRunListQuery,
  type TTimelineQuery,
} from "@/lib/contracts";
import { apiGet, queryString } from "./api-fetch";
import { queryInput, withApiInput } from "./api-input";
import { apiRunPath } from "./paths";

/** The runs list's filters as they live in the URL (all optional; sort defaults to newest first). */
export type RunFilters = Partial<
  Pick<
    TRunListQuery,
    "status" | "agent" | "model" | "q" | "from" | "to" | "hasViolations" | "hasDrops" | "finding" | "sort" | "cursor" | "limit"
  >
>;

/** Query keys: one factory, so invalidation and prefetch agree with the hooks. */
export const runKeys = {
  all: ["runs"] as const,
  list: (filters: RunFilters) => ["runs", "list", filters] as const,
  facets: () => ["runs", "facets"] as const,
  run: (runId: string) => ["runs", "run", runId] as const,
  summary: (runId: string) => ["runs", "run", runId, "summary"] as const,
  turn: (runId: string, turn: number) => ["runs", "run", runId, "turn", turn] as const,
};

/** One page of the runs list with these filters (the API's default size unless `limit`); sort defaults to newest first. */
export function runsListQuery(filters: RunFilters) {
  const input = { path: {}, query: queryInput(filters) };
  return withApiInput(
    input,
    queryOptions({
      queryKey: runKeys.list(filters),
      queryFn: ({ signal }) => apiGet(`/api/v1/runs${queryString(input.query)}`, ZRunListResponse, signal),
    }),
  );
}

/** The agents, models and statuses the runs list can be filtered by. */
export function runFacetsQuery() {
  return withApiInput(
    { path: {}, query: {} },
    queryOptions({
      queryKey: runKeys.facets(),
      queryFn: ({ signal }) => apiGet("/api/v1/facets", ZRunFacets, signal),
    }),
  );
}

export function runSummaryQuery(runId: string) {
  return withApiInput(
    { path: { runId }, query: {} },
    queryOptions({
      queryKey: runKeys.summary(runId),
      queryFn: ({ signal }) => apiGet(apiRunPath(runId), ZRunSummary, signal),
    }),
  );
}

export function turnDetailQuery(runId: string, turn: number) {
  return withApiInput(
    { path: { runId, turn: String(turn) }, query: {} },
    queryOptions({
      queryKey: runKeys.turn(runId, turn),
      queryFn: ({ signal }) => apiGet(apiRunPath(runId, `/turns/${turn}`), ZTurnDetail, signal),
    }),
  );
}

/** The run page's timeline: meter series, thresholds, reminder statuses, lanes and markers. */
export function runTimelineQuery(runId: string, window: TTimelineQuery = {}) {
  return withApiInput(
    { path: { runId }, query: queryInput(window) },
    queryOptions({
      queryKey: [...runKeys.run(runId), "timeline", window] as const,
      queryFn: ({ signal }) => apiGet(timelineUrl(runId, window), ZRunTimeline, signal),
    }),
  );
}

/** The triage bar's steps from a turn (null: from before the run): previous/next drop, finding, failed delivery. */
export function runTriageQuery(runId: string, turn: number | null) {
  const query: Record<string, string> = turn === null ? {} : { turn: String(turn) };
  return withApiInput(
    { path: { runId }, query },
    queryOptions({
      queryKey: [...runKeys.run(runId), "triage", turn] as const,
      queryFn: ({ signal }) => apiGet(apiRunPath(runId, "/triage", query), ZRunTriage, signal),
    }),
  );
}

/** The timeline's URL for a window (the page preloads exactly this URL for long runs). */
export function timelineUrl(runId: string, window: TTimelineQuery = {}): string {
  return apiRunPath(runId, "/timeline", queryInput(window));
}
