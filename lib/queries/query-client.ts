import { environmentManager, QueryClient } from "@tanstack/react-query";

/**
 * The app's one QueryClient recipe: the browser's (app/providers.tsx, one per tab) and every page's
 * server prefetch (one per request). Server components prefetch, so the browser does not refetch
 * right after hydration. The browser asks once more after a failure; the server never retries (as
 * react-query's own server default): a failed prefetch is not dehydrated, and the browser asks again
 * and shows the API's error.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: environmentManager.isServer() ? false : 1,
      },
    },
  });
}
