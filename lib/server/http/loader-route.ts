import "server-only";
import type { ApiInput } from "@/lib/queries/api-input";
import { runIdFromRoute } from "@/lib/queries/paths";
import { readLoader, type Loader } from "@/lib/server/loaders/define-loader";
import { apiRoute } from "./api-route";
import { queryOf } from "./request";

/**
 * A GET route answering with a loader (lib/server/loaders): the raw input of the request (see
 * `routeInput`), parsed by the loader's schemas, then read. The pages prefetch with the same loader,
 * so the page's data and the route's answer are the same DTO for the same input.
 */
export function loaderRoute<I, R>(loader: Loader<I, R>) {
  return apiRoute<Record<string, string>>(async ({ request, params, db, auth }) =>
    readLoader(loader, { db, projectId: auth.projectId, keyId: auth.key.id }, routeInput(request, params)),
  );
}

/**
 * A request's raw input: its path's parameters as Next.js decoded them (a run id as itself: the
 * `~?runId=..` placeholder of the ids `.` and `..` is read back, see lib/queries/paths.ts) and its
 * query string (the last value wins for a repeated name).
 */
export function routeInput(request: Request, params: Record<string, string>): ApiInput {
  const path = { ...params };
  if (params.runId !== undefined)
    path.runId = runIdFromRoute(params.runId, new URL(request.url).searchParams, { decode: false }) ?? params.runId;
  return { path, query: queryOf(request) };
}
