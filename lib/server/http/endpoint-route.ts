import "server-only";
import type { z } from "zod";
import type { AnyEndpoint, Endpoint } from "@/lib/endpoints";
import { assertAccess } from "@/lib/server/auth/access";
import type { Caller } from "@/lib/server/auth/keys";
import { authenticateExporter, authenticateRequest } from "@/lib/server/auth/request-key";
import { getDb, type Database } from "@/lib/server/db";
import { parseWith } from "@/lib/server/errors";
import { errorResponse, json } from "./errors-to-response";
import { readJsonBody, routeInput } from "./request";

/** What a request to an endpoint carries once its declaration parsed it. */
export interface EndpointInput<E extends AnyEndpoint> {
  path: z.output<E["pathParams"]>;
  query: z.output<E["query"]>;
  /** The JSON body parsed with the endpoint's body contract (undefined without one, or when the handler reads the body itself). */
  body: E extends Endpoint<z.ZodObject, z.ZodObject, infer B> ? (B extends z.ZodType ? z.output<B> : undefined) : undefined;
}

export interface HandlerContext<E extends AnyEndpoint> {
  request: Request;
  input: EndpointInput<E>;
  db: Database;
  /** Who calls (null for a public endpoint). */
  auth: E["auth"] extends "public" ? null : Caller;
  /**
   * The production server writes this request's streamed document itself (lib/server/http/direct.ts),
   * each piece out before it asks for the next, rather than Next.js through the Response's body.
   */
  direct: boolean;
}

/** The requests lib/server/http/direct.ts serves (HandlerContext.direct). */
const DIRECT_REQUESTS = new WeakSet<Request>();

/** Marks a request as one whose streamed answer lib/server/http/direct.ts writes itself. */
export function markDirect(request: Request): Request {
  DIRECT_REQUESTS.add(request);
  return request;
}

/** The function Next.js calls for a route, as app/api/[...path]/route.ts and the tests call it. */
export type RouteHandler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** An endpoint's route: callable as a route handler, and naming the endpoint it serves. */
export type EndpointRoute<E extends AnyEndpoint = AnyEndpoint> = RouteHandler & {
  readonly endpoint: E;
  /** Served by scripts/server.mjs past Next.js (lib/server/http/direct.ts): see HandlerOptions.direct. */
  readonly direct: boolean;
};

export interface HandlerOptions {
  /** The handler reads the body itself (OTLP's bytes; the ingest batch, checked for its count first). */
  rawBody?: boolean;
  /** Opens no database (health checks it its own way, the OpenAPI document needs none). Public endpoints only. */
  noDatabase?: boolean;
  /** An error answer in another encoding than JSON (OTLP's protobuf), or null for the usual one. */
  errorAnswer?: (error: unknown, request: Request) => Response | null;
  /**
   * A GET whose answer is a large streamed document (streamedDocument): the production server writes
   * its pieces to the socket itself instead of through Next's pipe (lib/server/http/direct.ts). The
   * route is the same either way; this only says who writes its body.
   */
  direct?: boolean;
}

/** A handler's answer with another status than the endpoint's first, or with headers: checked like a plain result. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The answer `status` with `body` (and headers), checked against the endpoint's response of that status. */
export function answer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return new Answer(status, body, headers);
}

/**
 * The one wrapper every API route goes through, from its declaration (lib/endpoints): opens the
 * database, checks who calls as the endpoint says (a Bearer key, rate limited per address on failure,
 * or the browser's session cookie, same-origin only for anything but GET/HEAD/OPTIONS; an exporter's
 * key; or no one), parses the path, the query and the JSON body with the endpoint's contracts, runs
 * the handler and answers: a Response as it is, a plain result as JSON with the endpoint's first
 * status. Outside production an answer its schema refuses is an error (a test that reaches it fails).
 * Any failure becomes the API's JSON error (lib/server/http/errors-to-response.ts).
 */
export function endpointRoute<E extends AnyEndpoint>(
  endpoint: E,
  handler: (ctx: HandlerContext<E>) => Promise<unknown>,
  options: HandlerOptions = {},
): EndpointRoute<E> {
  if (options.noDatabase && endpoint.auth !== "public")
    throw new Error(`endpoint ${endpoint.id}: only a public endpoint may open no database`);
  const route: RouteHandler = async (request, context) => {
    try {
      const db = options.noDatabase ? (null as unknown as Database) : await getDb();
      const auth =
        endpoint.auth === "key"
          ? await authenticateRequest(db, request)
          : endpoint.auth === "exporter"
            ? await authenticateExporter(db, request)
            : null;
      if (auth) assertAccess(auth, endpoint);
      const raw = routeInput(request, (await context?.params) ?? {});
      const path = parseWith(endpoint.pathParams, raw.path, "path");
      const query = parseWith(endpoint.query, raw.query, "query");
      const body =
        endpoint.body?.schema && !options.rawBody
          ? parseWith(endpoint.body.schema, await readJsonBody(request, endpoint.body.maxBytes), "body")
          : undefined;
      const input = { path, query, body } as EndpointInput<E>;
      const direct = DIRECT_REQUESTS.has(request);
      const result = await handler({ request, input, db, auth: auth as HandlerContext<E>["auth"], direct });
      if (result instanceof Response) return result;
      const reply = result instanceof Answer ? result : new Answer(endpoint.responses[0].status, result);
      if (process.env.NODE_ENV !== "production") checkAnswer(endpoint, reply);
      return reply.status === 204
        ? new Response(null, { status: 204, headers: reply.headers })
        : json(reply.status, reply.body, reply.headers);
    } catch (error) {
      return options.errorAnswer?.(error, request) ?? errorResponse(error);
    }
  };
  return Object.assign(route, { endpoint, direct: options.direct === true });
}

/** Whether a value is an endpoint's route (what the route registry collects from a module). */
export function isEndpointRoute(value: unknown): value is EndpointRoute {
  return (
    typeof value === "function" &&
    typeof (value as { endpoint?: { kind?: unknown } }).endpoint === "object" &&
    (value as EndpointRoute).endpoint?.kind === "endpoint"
  );
}

/**
 * Development and tests only: the answer's status is one the endpoint declares, and its body is
 * what that response's contract says (a route that answers otherwise fails the test that calls it).
 */
function checkAnswer(endpoint: AnyEndpoint, reply: Answer): void {
  const declared = endpoint.responses.find((response) => response.status === reply.status);
  if (!declared) throw new Error(`endpoint ${endpoint.id} answered ${reply.status}, which it does not declare`);
  if (!declared.schema) {
    if (reply.body !== undefined && reply.status === 204) throw new Error(`endpoint ${endpoint.id} answered 204 with a body`);
    return;
  }
  const checked = declared.schema.safeParse(reply.body);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(
      `endpoint ${endpoint.id} answered ${reply.status} with a body its contract refuses: ${issue.path.join(".") || "(the body)"}: ${issue.message}`,
    );
  }
}
