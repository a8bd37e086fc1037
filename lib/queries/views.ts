import { queryOptions } from "@tanstack/react-query";
import { ZSavedView, ZSavedViewList, type TSavedViewCreate, type TSavedViewPage, type TSavedViewUpdate } from "@/lib/contracts";
import { apiDeleteNoContent, apiGet, apiPost, apiSend } from "./api-fetch";
import { idSegment } from "./paths";

export const viewKeys = {
  all: ["views"] as const,
  page: (page: TSavedViewPage) => ["views", page] as const,
};

/** The project's saved views of one page (read in the browser only: the menu opens on demand). */
export function savedViewsQuery(page: TSavedViewPage) {
  return queryOptions({
    queryKey: viewKeys.page(page),
    queryFn: ({ signal }) => apiGet(`/api/v1/views?page=${page}`, ZSavedViewList, signal),
  });
}

export function createSavedView(input: TSavedViewCreate) {
  return apiPost("/api/v1/views", input, ZSavedView);
}

export function updateSavedView(id: string, input: TSavedViewUpdate) {
  return apiSend("PATCH", `/api/v1/views/${idSegment(id)}`, input, ZSavedView);
}

export function deleteSavedView(id: string) {
  return apiDeleteNoContent(`/api/v1/views/${idSegment(id)}`);
}
