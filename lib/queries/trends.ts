import { queryOptions } from "@tanstack/react-query";
import { trendsApi } from "@/lib/endpoints/trends";
import { queryInput } from "./api-input";
import { endpointFetch, withEndpoint } from "./endpoint-query";
import { readParams, stripUndefined, type SearchInput } from "./url-params";

/** What the trends page's URL says (the time zone is the user's, not the URL's). */
export interface TrendsView {
  from?: string;
  to?: string;
  agent?: string;
  model?: string;
  copyVersion?: string;
  policyVersion?: string;
}

/** The trends query: a view in a time zone. */
export type TrendsFilters = TrendsView & { tz: string };

const PARAMS = ["from", "to", "agent", "model", "copyVersion", "policyVersion"] as const;

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
