import { queryOptions } from "@tanstack/react-query";
import type { TRunListQuery, TSearchKind, TTimelineQuery } from "@/lib/contracts";
import { runsApi } from "@/lib/endpoints/runs";
import { queryInput } from "./api-input";
import { endpointFetch, withEndpoint } from "./endpoint-query";
import { endpointUrl } from "./paths";

/** The runs list's filters as they live in the URL (all optional; sort defaults to newest first). */
export type RunFilters = Partial<
  Pick<
    TRunListQuery,
    | "status"
    | "agent"
    | "model"
    | "experiment"
    | "arm"
    | "q"
    | "from"
    | "to"
    | "hasViolations"
    | "hasDrops"
    | "finding"
    | "sort"
    | "cursor"
    | "limit"
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

/** A read of a runs endpoint under a key: its queryFn and the input the page's prefetch hands the loader. */
function runsQuery<E extends (typeof runsApi)[keyof typeof runsApi], K extends readonly unknown[]>(
  endpoint: E,
  input: { path: Record<string, string>; query: Record<string, string> },
  queryKey: K,
) {
  return withEndpoint(endpoint, input, queryOptions({ queryKey, queryFn: endpointFetch(endpoint, input) }));
}

/** One page of the runs list with these filters (the API's default size unless `limit`); sort defaults to newest first. */
export function runsListQuery(filters: RunFilters) {
  return runsQuery(runsApi.list, { path: {}, query: queryInput(filters) }, runKeys.list(filters));
}

/** The agents, models and statuses the runs list can be filtered by. */
export function runFacetsQuery() {
  return runsQuery(runsApi.facets, { path: {}, query: {} }, runKeys.facets());
}

export function runSummaryQuery(runId: string) {
  return runsQuery(runsApi.summary, { path: { runId }, query: {} }, runKeys.summary(runId));
}

export function turnDetailQuery(runId: string, turn: number) {
  return runsQuery(runsApi.turn, { path: { runId, turn: String(turn) }, query: {} }, runKeys.turn(runId, turn));
}

/** The run page's timeline: meter series, thresholds, reminder statuses, lanes and markers. */
export function runTimelineQuery(runId: string, window: TTimelineQuery = {}) {
  return runsQuery(runsApi.timeline, { path: { runId }, query: queryInput(window) }, [...runKeys.run(runId), "timeline", window] as const);
}

/** The triage bar's steps from a turn (null: from before the run): previous/next drop, finding, failed delivery. */
export function runTriageQuery(runId: string, turn: number | null) {
  const query: Record<string, string> = turn === null ? {} : { turn: String(turn) };
  return runsQuery(runsApi.triage, { path: { runId }, query }, [...runKeys.run(runId), "triage", turn] as const);
}

/** The turns of the run matching a search (docs/search.md); `kind` null: every kind. */
export function runSearchQuery(runId: string, q: string, kind: TSearchKind | null) {
  const query: Record<string, string> = kind === null ? { q } : { q, kind };
  return runsQuery(runsApi.search, { path: { runId }, query }, [...runKeys.run(runId), "search", q, kind] as const);
}

/** The timeline's URL for a window (the page preloads exactly this URL for long runs). */
export function timelineUrl(runId: string, window: TTimelineQuery = {}): string {
  return endpointUrl(runsApi.timeline, { path: { runId }, query: queryInput(window) });
}
