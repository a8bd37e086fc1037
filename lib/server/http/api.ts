import "server-only";
import { ENDPOINTS, type AnyEndpoint, type Method } from "@/lib/endpoints";
import { viewerOf } from "@/lib/server/auth/keys";
import { LOADERS } from "@/lib/server/loaders";
import type { Loader } from "@/lib/server/loaders/define-loader";
import * as alerts from "./alert-routes";
import * as audit from "./audit-routes";
import * as comments from "./comment-routes";
import { endpointRoute, isEndpointRoute, type EndpointRoute } from "./endpoint-route";
import * as experiments from "./experiment-routes";
import * as keys from "./key-routes";
import * as members from "./member-routes";
import { json } from "./errors-to-response";
import * as otlp from "./otlp-routes";
import * as replay from "./replay-routes";
import * as reviewer from "./reviewer-routes";
import * as reviews from "./review-routes";
import * as runs from "./routes";
import * as service from "./service-routes";
import * as versions from "./version-routes";
import * as views from "./view-routes";

/**
 * Every endpoint's route, by endpoint id: each GET endpoint with a loader (lib/server/loaders) is
 * served by it, every other one by the route its module above exports. An endpoint declared in
 * lib/endpoints without a route, or with two, stops the server from starting (and the tests).
 */
export const ROUTES: ReadonlyMap<string, EndpointRoute> = (() => {
  const byId = new Map<string, EndpointRoute>();
  const add = (route: EndpointRoute) => {
    if (byId.has(route.endpoint.id)) throw new Error(`two routes serve the endpoint ${route.endpoint.id}`);
    byId.set(route.endpoint.id, route);
  };
  for (const loader of LOADERS.values()) add(loaderRoute(loader));
  for (const group of [
    alerts,
    audit,
    comments,
    experiments,
    keys,
    members,
    otlp,
    replay,
    reviewer,
    reviews,
    runs,
    service,
    versions,
    views,
  ]) {
    for (const route of Object.values(group).filter(isEndpointRoute)) add(route);
  }
  const declared = new Set(ENDPOINTS.map((endpoint) => endpoint.id));
  for (const id of byId.keys())
    if (!declared.has(id)) throw new Error(`a route serves ${id}, which lib/endpoints does not list in ENDPOINTS`);
  for (const endpoint of ENDPOINTS) if (!byId.has(endpoint.id)) throw new Error(`no route serves the endpoint ${endpoint.id}`);
  return byId;
})();

/** A loader's read as its endpoint's route: the answer is exactly what the page's prefetch gets. */
function loaderRoute(loader: Loader): EndpointRoute {
  return endpointRoute(loader.endpoint, ({ input, db, auth }) => loader.load(db, auth!.projectId, input, viewerOf(auth!)));
}

/** The route of an endpoint (what the tests call). */
export function routeOf(endpoint: AnyEndpoint): EndpointRoute {
  const route = ROUTES.get(endpoint.id);
  if (!route) throw new Error(`no route serves the endpoint ${endpoint.id}`);
  return route;
}

/** An endpoint's path template as segments, compared so that a fixed name wins over a parameter (`/runs/export` over `/runs/{runId}`). */
function specificity(endpoint: AnyEndpoint): string {
  return endpoint.segments.map((segment) => (typeof segment === "string" ? "0" : "1")).join("");
}

/** The endpoints, most specific path first. */
const BY_SPECIFICITY = [...ENDPOINTS].sort((a, b) => specificity(a).localeCompare(specificity(b)));

export type Match = { endpoint: AnyEndpoint; params: Record<string, string> } | { allowed: Method[] } | null;

/**
 * The endpoint a method and a URL path ask for, with the path's parameters decoded; `allowed` when
 * the path is an endpoint's but not for this method; null when no endpoint has the path (or a
 * segment is not valid percent-encoding). HEAD asks for a GET endpoint.
 */
export function matchEndpoint(method: string, pathname: string): Match {
  let decoded: string[];
  try {
    decoded = pathname.slice(1).split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
  const wanted = method === "HEAD" ? "GET" : method;
  const allowed: Method[] = [];
  let shape: string | null = null;
  for (const endpoint of BY_SPECIFICITY) {
    const params = paramsOf(endpoint, decoded);
    if (!params) continue;
    // Only the most specific path that matches counts: `/runs/export` is not also `/runs/{runId}`.
    if (shape !== null && specificity(endpoint) !== shape) break;
    shape = specificity(endpoint);
    if (endpoint.method === wanted) return { endpoint, params };
    allowed.push(endpoint.method);
  }
  return allowed.length ? { allowed } : null;
}

function paramsOf(endpoint: AnyEndpoint, segments: string[]): Record<string, string> | null {
  if (endpoint.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of endpoint.segments.entries()) {
    if (typeof segment === "string") {
      if (segment !== segments[i]) return null;
    } else params[segment.param] = segments[i];
  }
  return params;
}

/**
 * The API's one entry (app/api/[...path]/route.ts): the endpoint the request asks for, served by
 * its route; a JSON 405 naming the allowed methods, or a JSON 404, otherwise.
 */
export async function serveApi(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const match = matchEndpoint(request.method, pathname);
  if (match && "endpoint" in match) {
    const response = await routeOf(match.endpoint)(request, { params: Promise.resolve(match.params) });
    if (request.method !== "HEAD" || response.body === null) return response;
    await response.body.cancel(); // a HEAD's answer is the GET's headers; the body is never read
    return new Response(null, { status: response.status, headers: response.headers });
  }
  if (match) {
    const allow = [...new Set(match.allowed.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])))].join(", ");
    return json(
      405,
      {
        error: { code: "method_not_allowed", message: `${request.method} is not allowed at ${pathname.slice(0, 200)}; allowed: ${allow}` },
      },
      { allow },
    );
  }
  return json(404, {
    error: { code: "not_found", message: `no API at ${request.method} ${pathname.slice(0, 200)}; see /api/v1 in the README` },
  });
}
