import type { Caller } from "@/lib/server/auth/keys";
import { authenticateRequest } from "@/lib/server/auth/request-key";
import { getDb, type Database } from "@/lib/server/db";
import { errorResponse, json } from "./errors-to-response";

export interface ApiContext<P> {
  request: Request;
  params: P;
  db: Database;
  auth: Caller;
}

/**
 * The one wrapper every API route goes through: opens the database, checks who calls (a Bearer key,
 * rate limited per address on failure; or the browser's session cookie, same-origin only for
 * anything but GET/HEAD/OPTIONS — see lib/server/auth), runs the handler, and maps any failure to
 * a JSON error. A handler returns a body (200) or a Response.
 */
export function apiRoute<P = Record<string, never>>(handler: (ctx: ApiContext<P>) => Promise<unknown>) {
  return async (request: Request, context?: { params: Promise<P> }): Promise<Response> => {
    try {
      const db = await getDb();
      const auth = await authenticateRequest(db, request);
      const params = ((await context?.params) ?? {}) as P;
      const result = await handler({ request, params, db, auth });
      return result instanceof Response ? result : json(200, result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
