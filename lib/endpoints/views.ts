import { ZIdPathParams, ZSavedView, ZSavedViewCreate, ZSavedViewList, ZSavedViewsQuery, ZSavedViewUpdate } from "@/lib/contracts";
import { endpoint } from "./endpoint";

const MAX_VIEW_BYTES = 8 * 1024;

/** Named views of the runs list and the Reviewer audit, per project. */
export const viewsApi = {
  list: endpoint({
    id: "listSavedViews",
    method: "GET",
    path: "/api/v1/views",
    tag: "Saved views",
    summary: "List saved views",
    description: "The project's saved views (of one page with `page`), by page then name.",
    auth: "key",
    query: ZSavedViewsQuery,
    paramDescriptions: { page: "`runs` or `reviewer`: only that page's views." },
    responses: [{ status: 200, description: "The views.", schema: ZSavedViewList }],
  }),
  create: endpoint({
    id: "createSavedView",
    method: "POST",
    path: "/api/v1/views",
    tag: "Saved views",
    summary: "Save a view",
    description: "Saves a page's URL query (its filters and sort; a `cursor` is dropped) under a name unique on that page.",
    auth: "key",
    body: { schema: ZSavedViewCreate, maxBytes: MAX_VIEW_BYTES, description: "The page, the name and the query without `?`." },
    responses: [{ status: 201, description: "The saved view.", schema: ZSavedView }],
    errors: { 409: "The page has a view of that name, or 100 views already." },
  }),
  update: endpoint({
    id: "updateSavedView",
    method: "PATCH",
    path: "/api/v1/views/{id}",
    tag: "Saved views",
    summary: "Rename or change a saved view",
    description: "A new name, a new query, or both.",
    auth: "key",
    pathParams: ZIdPathParams,
    body: { schema: ZSavedViewUpdate, maxBytes: MAX_VIEW_BYTES, description: "`name` and/or `query`." },
    responses: [{ status: 200, description: "The view.", schema: ZSavedView }],
    errors: { 404: "No such view in the project.", 409: "The page has another view of that name." },
  }),
  delete: endpoint({
    id: "deleteSavedView",
    method: "DELETE",
    path: "/api/v1/views/{id}",
    tag: "Saved views",
    summary: "Delete a saved view",
    description: "Deletes one of the project's saved views. No body.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 204, description: "Deleted." }],
    errors: { 404: "No such view in the project." },
  }),
};
