import { queryOptions } from "@tanstack/react-query";
import type { TSavedViewCreate, TSavedViewPage, TSavedViewUpdate } from "@/lib/contracts";
import { viewsApi } from "@/lib/endpoints/views";
import { callEndpoint, endpointFetch } from "./endpoint-query";

export const viewKeys = {
  all: ["views"] as const,
  page: (page: TSavedViewPage) => ["views", page] as const,
};

/** The project's saved views of one page (read in the browser only: the menu opens on demand). */
export function savedViewsQuery(page: TSavedViewPage) {
  return queryOptions({
    queryKey: viewKeys.page(page),
    queryFn: endpointFetch(viewsApi.list, { path: {}, query: { page } }),
  });
}

export function createSavedView(input: TSavedViewCreate) {
  return callEndpoint(viewsApi.create, {}, input);
}

export function updateSavedView(id: string, input: TSavedViewUpdate) {
  return callEndpoint(viewsApi.update, { path: { id } }, input);
}

export function deleteSavedView(id: string) {
  return callEndpoint(viewsApi.delete, { path: { id } });
}
