import "server-only";
import { viewsApi } from "@/lib/endpoints/views";
import { createSavedView, deleteSavedView, listSavedViews, updateSavedView } from "@/lib/server/views/saved-views";
import { endpointRoute } from "./endpoint-route";

/** The project's saved views (read in the browser only: the menu opens on demand). */
export const listViewsRoute = endpointRoute(viewsApi.list, async ({ input, db, auth }) => ({
  views: await listSavedViews(db, auth.projectId, input.query.page),
}));

/** Saves a page's URL query under a name (201; 409 for a name the page has). */
export const createViewRoute = endpointRoute(viewsApi.create, ({ input, db, auth }) => createSavedView(db, auth.projectId, input.body));

/** Renames a view or gives it a new query. */
export const updateViewRoute = endpointRoute(viewsApi.update, ({ input, db, auth }) =>
  updateSavedView(db, auth.projectId, input.path.id, input.body),
);

/** 204. */
export const deleteViewRoute = endpointRoute(viewsApi.delete, async ({ input, db, auth }) => {
  await deleteSavedView(db, auth.projectId, input.path.id);
  return undefined;
});
