import "server-only";
import type { DataTag, QueryClient, QueryKey } from "@tanstack/react-query";
import type { ApiInput } from "@/lib/queries/api-input";
import { readLoader, type Loader, type LoaderContext } from "./define-loader";

/**
 * A query of lib/queries as a page's server prefetch reads it: its key (tagged with the data its
 * queryFn returns) and the input its queryFn sends to the API.
 */
export interface ServerQuery<R> {
  queryKey: DataTag<QueryKey, R, Error>;
  apiInput: ApiInput;
}

/**
 * Prefetches a query under the client's own key, answered by the read's loader with the input the
 * browser would send (no HTTP round trip, same defaults, same DTO). A failure is not cached: the
 * page renders, and the browser asks again and shows the API's error.
 */
export function prefetchQuery<R>(queryClient: QueryClient, query: ServerQuery<R>, loader: Loader<unknown, R>, context: LoaderContext) {
  return queryClient.prefetchQuery({ queryKey: query.queryKey, queryFn: () => readLoader(loader, context, query.apiInput) });
}

/** Like prefetchQuery, but returns the data and throws the loader's error (a page that needs the data itself). */
export function fetchQuery<R>(
  queryClient: QueryClient,
  query: ServerQuery<R>,
  loader: Loader<unknown, R>,
  context: LoaderContext,
): Promise<R> {
  return queryClient.fetchQuery({ queryKey: query.queryKey, queryFn: () => readLoader(loader, context, query.apiInput) });
}

/** The query's data read directly, not cached or sent to the browser (a page that only decides with it). */
export function loadQuery<R>(query: ServerQuery<R>, loader: Loader<unknown, R>, context: LoaderContext): Promise<R> {
  return readLoader(loader, context, query.apiInput);
}
