import "server-only";
import type { DataTag, QueryClient, QueryKey } from "@tanstack/react-query";
import type { AnyEndpoint } from "@/lib/endpoints";
import type { ApiInput } from "@/lib/queries/api-input";
import { readLoader, type LoaderContext } from "./define-loader";
import { LOADERS } from "./index";

/**
 * A query of lib/queries as a page's server prefetch reads it: its key (tagged with the data its
 * queryFn returns), the endpoint it asks and the input its queryFn sends.
 */
export interface ServerQuery<R> {
  queryKey: DataTag<QueryKey, R, Error>;
  endpoint: AnyEndpoint;
  apiInput: ApiInput;
}

/** The query's read: its endpoint's loader with the input the browser would send (no HTTP round trip, same defaults, same DTO). */
function read<R>(query: ServerQuery<R>, context: LoaderContext): Promise<R> {
  const loader = LOADERS.get(query.endpoint.id);
  if (!loader)
    throw new Error(`no loader serves ${query.endpoint.method} ${query.endpoint.path}: only GET endpoints with a loader can be prefetched`);
  return readLoader(loader, context, query.apiInput) as Promise<R>;
}

/**
 * Prefetches a query under the client's own key, answered by its endpoint's loader. A failure is
 * not cached: the page renders, and the browser asks again and shows the API's error.
 */
export function prefetchQuery<R>(queryClient: QueryClient, query: ServerQuery<R>, context: LoaderContext) {
  return queryClient.prefetchQuery({ queryKey: query.queryKey, queryFn: () => read(query, context) });
}

/** Like prefetchQuery, but returns the data and throws the loader's error (a page that needs the data itself). */
export function fetchQuery<R>(queryClient: QueryClient, query: ServerQuery<R>, context: LoaderContext): Promise<R> {
  return queryClient.fetchQuery({ queryKey: query.queryKey, queryFn: () => read(query, context) });
}

/** The query's data read directly, not cached or sent to the browser (a page that only decides with it). */
export function loadQuery<R>(query: ServerQuery<R>, context: LoaderContext): Promise<R> {
  return read(query, context);
}
