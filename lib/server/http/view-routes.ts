import "server-only";
import { ZIdPathParams, ZSavedViewCreate, ZSavedViewsQuery, ZSavedViewUpdate } from "@/lib/contracts";
import { createSavedView, deleteSavedView, listSavedViews, updateSavedView } from "@/lib/server/views/saved-views";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { queryOf, readJsonBody } from "./request";
import { parseWith } from "@/lib/server/errors";

const MAX_VIEW_BYTES = 8 * 1024;
type IdParams = { id: string };

const idOf = (params: IdParams) => parseWith(ZIdPathParams, { id: params.id }, "path").id;

/** GET /api/v1/views?page=runs|reviewer — the project's saved views. */
export const listViewsRoute = apiRoute(async ({ request, db, auth }) => {
  const { page } = parseWith(ZSavedViewsQuery, queryOf(request), "query");
  return { views: await listSavedViews(db, auth.projectId, page) };
});

/** POST /api/v1/views — saves a page's URL query under a name (201; 409 for a name the page has). */
export const createViewRoute = apiRoute(async ({ request, db, auth }) =>
  json(201, await createSavedView(db, auth.projectId, parseWith(ZSavedViewCreate, await readJsonBody(request, MAX_VIEW_BYTES), "body"))),
);

/** PATCH /api/v1/views/:id — renames a view or gives it a new query. */
export const updateViewRoute = apiRoute<IdParams>(async ({ request, params, db, auth }) =>
  updateSavedView(db, auth.projectId, idOf(params), parseWith(ZSavedViewUpdate, await readJsonBody(request, MAX_VIEW_BYTES), "body")),
);

/** DELETE /api/v1/views/:id — 204. */
export const deleteViewRoute = apiRoute<IdParams>(async ({ params, db, auth }) => {
  await deleteSavedView(db, auth.projectId, idOf(params));
  return new Response(null, { status: 204 });
});
