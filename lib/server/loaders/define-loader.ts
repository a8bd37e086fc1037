import "server-only";
import { z } from "zod";
import type { ApiInput } from "@/lib/queries/api-input";
import type { Database } from "@/lib/server/db";
import { parseWith } from "@/lib/server/errors";

/** Who asks: the open database and the caller's project (from the API key or the session). */
export interface LoaderContext {
  db: Database;
  projectId: string;
  /** The caller's API key (a session's key), for reads that mark the caller's own items (comments' `mine`). */
  keyId?: string;
}

/**
 * One read of the API, shared by its route (lib/server/http/loader-route.ts) and by the pages'
 * server prefetch (./prefetch.ts): the schemas of its path and query parameters, which parse the
 * raw input and fill in the defaults (a list's `limit` and `sort`), and the read itself, which
 * returns exactly the DTO the route sends.
 */
export interface Loader<I, R> {
  readonly path: z.ZodType;
  readonly query: z.ZodType;
  /** The raw input checked (the path's parameters first): a DomainError naming `path.<name>` or `query.<name>` otherwise. */
  parse(raw: Partial<ApiInput>): I;
  load(db: Database, projectId: string, input: I, keyId?: string): Promise<R>;
}

const NO_PARAMETERS = z.object({});
type NoParameters = typeof NO_PARAMETERS;

/** The input a loader's `load` receives: both parts parsed by their schemas. */
export type LoaderInput<P extends z.ZodType, Q extends z.ZodType> = { path: z.output<P>; query: z.output<Q> };

/**
 * A loader from its schemas (a part without one takes no parameters: unknown names are ignored, as
 * z.object does) and its read.
 */
export function defineLoader<R, P extends z.ZodType = NoParameters, Q extends z.ZodType = NoParameters>(spec: {
  path?: P;
  query?: Q;
  load: (db: Database, projectId: string, input: LoaderInput<P, Q>, keyId?: string) => Promise<R>;
}): Loader<LoaderInput<P, Q>, R> {
  const path = (spec.path ?? NO_PARAMETERS) as P;
  const query = (spec.query ?? NO_PARAMETERS) as Q;
  return {
    path,
    query,
    parse: (raw) => ({ path: parseWith(path, raw.path ?? {}, "path"), query: parseWith(query, raw.query ?? {}, "query") }),
    load: spec.load,
  };
}

/** Parses raw input with the loader's schemas and reads: what the route answers for the same input. */
export function readLoader<I, R>(loader: Loader<I, R>, context: LoaderContext, raw: Partial<ApiInput>): Promise<R> {
  return loader.load(context.db, context.projectId, loader.parse(raw), context.keyId);
}
