import { queryOptions } from "@tanstack/react-query";
import { trendsApi } from "@/lib/endpoints/trends";
import { queryInput } from "./api-input";
import { endpointFetch, withEndpoint } from "./endpoint-query";
import { runKeys } from "./runs";
import { readParams, stripUndefined, type SearchInput } from "./url-params";

/** What the trends page's URL says (the time zone is the user's, not the URL's). */
export interface TrendsView {
  from?: string;
  to?: string;
  agent?: string;
  model?: string;
  copyVersion?: string;
  policyVersion?: string;
  /** An experiment's id and one of its arms' names (contract §10): only the runs that named them. */
  experiment?: string;
  arm?: string;
}

/** The trends query: a view in a time zone. */
export type TrendsFilters = TrendsView & { tz: string };

const PARAMS = ["from", "to", "agent", "model", "copyVersion", "policyVersion", "experiment", "arm"] as const;

/** Reads the trends page's URL (values are checked by the API's schema, ZTrendsQuery). */
export function parseTrendsUrl(input: SearchInput): TrendsView {
  const params = readParams(input, PARAMS);
  return stripUndefined({ ...params });
}

/** The trends page's URL for a view. */
export function trendsHref(view: TrendsView): string {
  const search = new URLSearchParams();
  for (const name of PARAMS) if (view[name]) search.set(name, view[name]!);
  const text = search.toString();
  return text ? `/trends?${text}` : "/trends";
}

export const trendsKeys = { all: ["trends"] as const, view: (filters: TrendsFilters) => ["trends", filters] as const };

/** GET /api/v1/trends for a view in a time zone. */
export function trendsQuery(filters: TrendsFilters) {
  const input = { path: {}, query: queryInput({ ...filters }) };
  return withEndpoint(
    trendsApi.trends,
    input,
    queryOptions({ queryKey: trendsKeys.view(filters), queryFn: endpointFetch(trendsApi.trends, input) }),
  );
}

export const effectivenessKeys = { view: (filters: TrendsFilters) => ["effectiveness", filters] as const };

/** GET /api/v1/effectiveness for a view in a time zone (the trends page's filters). */
export function effectivenessQuery(filters: TrendsFilters) {
  const input = { path: {}, query: queryInput({ ...filters }) };
  return withEndpoint(
    trendsApi.effectiveness,
    input,
    queryOptions({ queryKey: effectivenessKeys.view(filters), queryFn: endpointFetch(trendsApi.effectiveness, input) }),
  );
}

/** GET /api/v1/runs/:runId/effectiveness: one run's delivered vs dropped follow-up and fatigue. */
export function runEffectivenessQuery(runId: string) {
  const input = { path: { runId }, query: {} };
  return withEndpoint(
    trendsApi.runEffectiveness,
    input,
    queryOptions({
      queryKey: [...runKeys.run(runId), "effectiveness"] as const,
      queryFn: endpointFetch(trendsApi.runEffectiveness, input),
    }),
  );
}
