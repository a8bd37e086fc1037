/**
 * Every URL that carries an id (run ids are 1–128 characters of any kind, contract §4) is built here,
 * so each id is one percent-encoded path segment: `/`, `?`, `#`, `%`, spaces and non-ASCII text
 * stay part of the id.
 *
 * `.` and `..` cannot be path segments at all — browsers and servers resolve them (`%2E%2E` too)
 * — so those two ids travel as the placeholder segment `~` plus `?runId=<id>`. The pages and the
 * API read the run id back with `runIdFromRoute`; a run whose id really is `~` keeps `/runs/~`.
 */

import type { AnyEndpoint } from "@/lib/endpoints/endpoint";

type Query = Record<string, string | number | undefined | null>;

/** The placeholder segment of an id that cannot be a path segment (`.` and `..`). */
export const DOT_ID_SEGMENT = "~";
/** The query parameter that then carries the id. */
export const DOT_ID_PARAM = "runId";

/**
 * Ids that cannot be the run segment: `.` and `..` (resolved away), and `export`, whose API path
 * `/api/v1/runs/export` is the runs export. They travel as the placeholder.
 */
const isDotSegment = (id: string) => id === "." || id === ".." || id === "export";

/** One path segment naming an id; `extra` receives the query the id needs (dot ids only). */
function runSegment(runId: string, extra: URLSearchParams): string {
  if (isDotSegment(runId)) {
    extra.set(DOT_ID_PARAM, runId);
    return DOT_ID_SEGMENT;
  }
  return encodeURIComponent(runId);
}

/** A generated id (versions, replay jobs) as a path segment. */
export function idSegment(id: string): string {
  return encodeURIComponent(id);
}

function withQuery(path: string, params: URLSearchParams, query: Query): string {
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** The run page, optionally at a turn and with more view parameters (`from`, `to`). */
export function runPath(runId: string, query: Query = {}): string {
  const params = new URLSearchParams();
  return withQuery(`/runs/${runSegment(runId, params)}`, params, query);
}

/** The run page at a turn (where candidate rows, previews and replays link to). */
export function runTurnPath(runId: string, turn: number): string {
  return runPath(runId, { turn });
}

/**
 * The run page at the run's first turn with a dropped reminder, a finding or a failed/uncertain
 * delivery (the triage kinds): the page answers with a redirect to that turn, or to the run when it
 * has none (docs/architecture.md#problem-keys).
 */
export function runFirstPath(runId: string, kind: "drop" | "finding" | "delivery"): string {
  return runPath(runId, { first: kind });
}

/** A run's API URL: `/api/v1/runs/<id><rest>` (rest: "", "/timeline", "/turns/3"…) with a query. */
export function apiRunPath(runId: string, rest = "", query: Query = {}): string {
  const params = new URLSearchParams();
  return withQuery(`/api/v1/runs/${runSegment(runId, params)}${rest}`, params, sortedQuery(query));
}

/**
 * An endpoint's URL (lib/endpoints) for its path parameters and query: each parameter one
 * percent-encoded segment (a run id as runSegment writes it), the query's keys sorted.
 */
export function endpointUrl(endpoint: AnyEndpoint, input: { path?: Record<string, string>; query?: Query }): string {
  const params = new URLSearchParams();
  const segments = endpoint.segments.map((segment) => {
    if (typeof segment === "string") return segment;
    const value = input.path?.[segment.param];
    if (value === undefined) throw new Error(`${endpoint.id}: no value for the path parameter ${segment.param}`);
    return segment.param === "runId" ? runSegment(value, params) : idSegment(value);
  });
  return withQuery(`/${segments.join("/")}`, params, sortedQuery(input.query ?? {}));
}

/** One changed turn of a replayed run, baseline beside what-if. */
export function replayTurnPath(jobId: string, runId: string, turn: number): string {
  const params = new URLSearchParams();
  return withQuery(`/copy/replay/${idSegment(jobId)}/runs/${runSegment(runId, params)}/turns/${turn}`, params, {});
}

function sortedQuery(query: Query): Query {
  return Object.fromEntries(
    Object.keys(query)
      .sort()
      .map((key) => [key, query[key]]),
  );
}

/**
 * The run id a page or route was addressed with. `segment` is the dynamic segment as Next.js
 * hands it over: still percent-encoded for pages (`decode: true`, decoded exactly once here),
 * already decoded for route handlers. The placeholder `~` with `?runId=` names `.` or `..`.
 * Null when the segment is not valid percent-encoding.
 */
export function runIdFromRoute(
  segment: string,
  search: URLSearchParams | Record<string, string | string[] | undefined>,
  options: { decode: boolean },
): string | null {
  const raw = search instanceof URLSearchParams ? search.get(DOT_ID_PARAM) : search[DOT_ID_PARAM];
  const viaQuery = Array.isArray(raw) ? raw.at(-1) : raw;
  const id = options.decode ? decodeSegment(segment) : segment;
  if (id === DOT_ID_SEGMENT && viaQuery !== undefined && viaQuery !== null && isDotSegment(viaQuery)) return viaQuery;
  return id;
}

/** A page's dynamic segment decoded exactly once (Next.js leaves page params percent-encoded), or null. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
