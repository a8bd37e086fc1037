import "server-only";
import type { z } from "zod";
import type { AnyEndpoint } from "@/lib/endpoints";
import type { ApiInput } from "@/lib/queries/api-input";
import type { Viewer } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { parseWith } from "@/lib/server/errors";

/** Who asks: the open database and the caller's project (from the API key or the session). */
export interface LoaderContext {
  db: Database;
  projectId: string;
  /** The caller's key or person, for reads that mark the caller's own items (comments' `mine`, the current key or member). */
  viewer?: Viewer;
}

/** The input a loader's `load` receives: the path and the query, parsed by the endpoint's contracts. */
export type LoaderInput<E extends AnyEndpoint> = { path: z.output<E["pathParams"]>; query: z.output<E["query"]> };

/**
 * One GET endpoint's read (lib/endpoints declares the endpoint), shared by its route (served for
 * it by lib/server/http/api.ts) and by the pages' server prefetch (./prefetch.ts): `parse` checks
 * the raw input with the endpoint's path and query contracts (filling in their defaults: a list's
 * `limit` and `sort`), `load` returns exactly the DTO the route sends.
 */
export interface Loader<E extends AnyEndpoint = AnyEndpoint, R = unknown> {
  readonly kind: "loader";
  readonly endpoint: E;
  /** The raw input checked (the path's parameters first): a DomainError naming `path.<name>` or `query.<name>` otherwise. */
  parse(raw: Partial<ApiInput>): LoaderInput<E>;
  load(db: Database, projectId: string, input: LoaderInput<E>, viewer: Viewer): Promise<R>;
}

/** A GET endpoint's loader from its read. */
export function defineLoader<E extends AnyEndpoint, R>(
  endpoint: E,
  load: (db: Database, projectId: string, input: LoaderInput<E>, viewer: Viewer) => Promise<R>,
): Loader<E, R> {
  if (endpoint.method !== "GET") throw new Error(`a loader serves a GET endpoint; ${endpoint.id} is ${endpoint.method}`);
  return {
    kind: "loader",
    endpoint,
    parse: (raw) => ({
      path: parseWith(endpoint.pathParams, raw.path ?? {}, "path"),
      query: parseWith(endpoint.query, raw.query ?? {}, "query"),
    }),
    load,
  };
}

export function isLoader(value: unknown): value is Loader {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "loader";
}

/** Parses raw input with the loader's contracts and reads: what the route answers for the same input. */
export function readLoader<E extends AnyEndpoint, R>(loader: Loader<E, R>, context: LoaderContext, raw: Partial<ApiInput>): Promise<R> {
  return loader.load(context.db, context.projectId, loader.parse(raw), context.viewer ?? {});
}
