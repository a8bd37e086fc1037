import { z } from "zod";

/**
 * One declaration per endpoint of `/api/v1` (architecture habit 2): its method, path,
 * parameters, body, answers, who may call it and its documentation, in one value. Everything else
 * is derived from it: the server's routing, parsing and (in development and tests) answer checks
 * (lib/server/http/api.ts), the OpenAPI document and `/docs/api` (lib/api-docs), the browser's
 * queries (lib/queries/endpoint-query.ts) and the pages' server prefetch (lib/server/loaders).
 * Pure and browser-safe: zod and the contracts only.
 */

export const TAGS = [
  { name: "Ingest", description: "Sending telemetry: batches of events, each validated and stored on its own." },
  {
    name: "OpenTelemetry",
    description: "OTLP/HTTP ingestion for OpenTelemetry exporters (docs/contract/otlp.md), and what it kept besides telemetry events.",
  },
  { name: "Runs", description: "Reading runs: the list, a run's summary, its rebuilt decisions, timeline, turns and raw events." },
  {
    name: "Comments",
    description: "Notes on a run or on one of its turns: Markdown written by the signed-in key, edited and deleted by its author only.",
  },
  { name: "Reviewer", description: "The Reviewer audit over the filtered runs: candidates, funnel and export." },
  {
    name: "Reviews",
    description:
      "People's verdicts on Reviewer dispatches and violations, with comments and assignments; the queue's progress and verdicts per week.",
  },
  { name: "Trends", description: "Counts per day in a time zone, from the per-run aggregates each rebuild stores." },
  {
    name: "Alerts",
    description:
      "Alert rules over the stored aggregates (a key's drop rate, Reviewer violations, a finding code, a live run's meter stage), evaluated every minute; " +
      "the alerts they fired, with each webhook delivery's attempts; export.",
  },
  { name: "Copy versions", description: "Saved reminder copy: list, save, read, make the project's default." },
  { name: "Policy versions", description: "Saved policies: list, save, read, make the project's default." },
  { name: "Saved views", description: "Named views of the runs list and the Reviewer audit (a page's URL query), per project." },
  {
    name: "Experiments",
    description: "Copy and policy experiments: arms assigned per run (contract §10), started, stopped, an arm promoted to the defaults.",
  },
  {
    name: "Members",
    description:
      "The project's people and their roles (viewer, member, admin): invitation links, role changes, removals, password reset links.",
  },
  { name: "API keys", description: "The project's keys: made with a name and a scope (ingest, read, admin), listed, revoked." },
  {
    name: "Audit log",
    description:
      "Who changed what, when, from where, before → after: versions and defaults, experiments, keys, members and roles, deleted comments.",
  },
  { name: "Replay", description: "What-if replays of stored runs with another copy or policy version (background jobs)." },
  { name: "Service", description: "Health and this reference; no key needed." },
] as const;

export type TagName = (typeof TAGS)[number]["name"];

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * `key`: a Bearer API key (or the browser's session cookie, same-origin for anything but GET);
 * `exporter`: the API key as an OTLP exporter sends it (Bearer, `x-api-key` or HTTP Basic; no
 * session); `public`: no credentials.
 */
export type Auth = "key" | "exporter" | "public";

/**
 * What an endpoint does, which a key's scope must allow (lib/server/auth/access.ts): `ingest` sends
 * telemetry; `read` reads; `write` changes the team's working data (comments, saved views, drafts
 * saved as versions, replays); `admin` changes what everyone works with (defaults, experiments, keys).
 */
export type Access = "ingest" | "read" | "write" | "admin";

/** The error statuses the API answers with (lib/server/http/errors-to-response.ts), 500 aside. */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 429, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** A body that is not one JSON contract: its media type and, in words, what it holds. */
export interface OtherContent {
  mediaType: string;
  /** A contract (an array of one: a JSON array of it), or plain text, any object, or bytes. */
  schema: z.ZodType | "text" | "object" | "binary";
}

/** A success answer: its status, what it means, and its body. */
export interface SuccessResponse<R extends z.ZodType | undefined = z.ZodType> {
  status: number;
  description: string;
  /** The JSON body's contract. */
  schema?: R;
  /** A body that is not one JSON contract (downloads, OTLP). */
  content?: OtherContent[];
  headers?: Record<string, string>;
}

export interface EndpointBody<B extends z.ZodType | undefined> {
  /** The JSON body's contract, which the server parses it with. */
  schema?: B;
  /** How the reference shows the body when it differs from what the server parses with (the ingest batch's items). */
  documentedAs?: z.ZodType;
  /** Other media types (OTLP), read by the handler itself. */
  content?: { mediaType: string; schema: "binary" | "object" }[];
  maxBytes: number;
  description: string;
}

export interface EndpointSpec<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
> {
  /** The OpenAPI operationId: unique, camelCase. */
  id: string;
  method: Method;
  /** `/api/v1/runs/{runId}`: each `{name}` is a field of `pathParams`. */
  path: string;
  tag: TagName;
  summary: string;
  description: string;
  auth: Auth;
  /** What it does, for the key scopes: `read` for a GET and `write` for another method unless said. */
  access?: Access;
  pathParams?: P;
  query?: Q;
  /** What a parameter means, by name (path and query alike); common ones are in PARAM_DESCRIPTIONS. */
  paramDescriptions?: Record<string, string>;
  body?: EndpointBody<B>;
  /** The first is the usual answer: a handler's plain result is sent with its status and checked against its schema. */
  responses: [SuccessResponse<R>, ...SuccessResponse[]];
  /** Error answers particular to this endpoint (the usual ones follow from its shape, see lib/api-docs/document.ts). */
  errors?: Partial<Record<ErrorStatus, string | { description: string; schema: z.ZodType }>>;
}

export interface Endpoint<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> extends Omit<EndpointSpec<P, Q, B, R>, "pathParams" | "query" | "access"> {
  readonly kind: "endpoint";
  readonly access: Access;
  readonly pathParams: P;
  readonly query: Q;
  /** The path's segments: a fixed name, or `{ param }`. */
  readonly segments: readonly (string | { param: string })[];
  /** The usual answer's JSON contract (the first response's); undefined when it has none (a 204, a download). */
  readonly response: R;
}

/** Any endpoint, whatever its schemas. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = Endpoint<any, any, any, any>;

const NO_PARAMETERS = z.object({});
type NoParameters = typeof NO_PARAMETERS;

/**
 * An endpoint from its declaration; a part without schemas takes no parameters (unknown names
 * are ignored, as z.object does). Checks what can be checked without a server: the path's
 * parameters and the schema's fields are the same names.
 */
export function endpoint<
  P extends z.ZodObject = NoParameters,
  Q extends z.ZodObject = NoParameters,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(spec: EndpointSpec<P, Q, B, R>): Endpoint<P, Q, B, R> {
  const pathParams = (spec.pathParams ?? NO_PARAMETERS) as P;
  const query = (spec.query ?? NO_PARAMETERS) as Q;
  if (!spec.path.startsWith("/api/v1/")) throw new Error(`endpoint ${spec.id}: the path ${spec.path} is not under /api/v1/`);
  const segments = spec.path
    .slice(1)
    .split("/")
    .map((segment) => {
      const param = /^\{([A-Za-z]+)\}$/.exec(segment)?.[1];
      if (!param && /[{}]/.test(segment)) throw new Error(`endpoint ${spec.id}: the path segment ${segment} is neither a name nor {param}`);
      return param ? { param } : segment;
    });
  const named = segments.flatMap((s) => (typeof s === "string" ? [] : [s.param])).sort();
  const declared = Object.keys(pathParams.shape).sort();
  if (named.join() !== declared.join()) {
    throw new Error(`endpoint ${spec.id}: the path names {${named.join("}, {")}} but pathParams has ${declared.join(", ") || "nothing"}`);
  }
  const response = spec.responses[0].schema as R;
  const access = spec.access ?? (spec.method === "GET" ? "read" : "write");
  return { ...spec, kind: "endpoint", access, pathParams, query, segments, response };
}

export function isEndpoint(value: unknown): value is AnyEndpoint {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "endpoint";
}

/** Every endpoint among a module's values (an object of them, or a list of such objects). */
export function endpointsIn(...groups: Record<string, unknown>[]): AnyEndpoint[] {
  return groups.flatMap((group) => Object.values(group).filter(isEndpoint));
}

/** The meaning of the parameters many endpoints share, by name; an endpoint's own paramDescriptions win. */
export const PARAM_DESCRIPTIONS: Record<string, string> = {
  runId: "The run's id (1–128 characters). The ids `.` and `..` are sent as `~` with the query `?runId=.` or `?runId=..`.",
  turn: "A turn number (an integer ≥ 0).",
  id: "The record's id, as the API gave it.",
  cursor: "The `nextCursor` of the previous page; leave out for the first page.",
  limit: "How many items per page.",
  status: "Only runs with this status.",
  agent: "Only runs of this agent (exact name).",
  model: "Only runs of this model (exact name).",
  experiment: "Only runs whose run.started named this experiment id (contract §10).",
  arm: "Only runs whose run.started named this arm (exact name; usually with `experiment`).",
  q: "Text in the run's task, case-insensitive.",
  from: "Only runs started at or after this RFC 3339 date-time (with a zone).",
  to: "Only runs started at or before this RFC 3339 date-time (with a zone).",
  sort: "Order of the list: by start or by turns, `-` for descending.",
  violations: "`1` or `true`: only candidates with a finding.",
  format: "`csv` (the default) or `json`.",
};

/** A parameter's description: the endpoint's own, else the shared one. */
export function paramDescription(endpoint: AnyEndpoint, name: string): string | undefined {
  return endpoint.paramDescriptions?.[name] ?? PARAM_DESCRIPTIONS[name];
}
