import packageJson from "@/package.json";
import { z } from "zod";
import {
  ENDPOINTS,
  ERROR_STATUSES,
  paramDescription,
  TAGS,
  type AnyEndpoint,
  type ErrorStatus,
  type OtherContent,
  type SuccessResponse,
} from "@/lib/endpoints";
import { COMPONENT_PREFIX, componentSchemas, parameterSchemas, schemaName, type JsonSchema } from "./schemas";

/**
 * The OpenAPI 3.1 document of `/api/v1`, built from the endpoints' declarations (lib/endpoints) and
 * the zod contracts they name (./schemas.ts). Pure: the route `GET /api/v1/openapi.json` serves it and the
 * page `/docs/api` renders it.
 */

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

export type OpenApiParameter = { name: string; in: "path" | "query"; required: boolean; description?: string; schema: JsonSchema };

export type OpenApiOperation = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; description: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
};

export type OpenApiResponse = {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
};

/** The name of the browser's session cookie (lib/server/auth/sessions.ts; kept in step by document.test.ts). */
export const SESSION_COOKIE_NAME = "cuescope_session";

const KEY_SECURITY: Record<string, string[]>[] = [{ bearerKey: [] }, { sessionCookie: [] }];
/** The forms an OpenTelemetry exporter sends the key in (docs/contract/otlp.md#authentication). */
const EXPORTER_SECURITY: Record<string, string[]>[] = [{ bearerKey: [] }, { apiKeyHeader: [] }, { basicKey: [] }];
const SECURITY: Record<AnyEndpoint["auth"], Record<string, string[]>[]> = { key: KEY_SECURITY, exporter: EXPORTER_SECURITY, public: [] };

const ref = (name: string): JsonSchema => ({ $ref: COMPONENT_PREFIX + name });
const RETRY_AFTER = { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } };

/** The usual meaning of each error status, where an operation's shape says it applies. */
const ERROR_MEANING: Record<ErrorStatus, string> = {
  400: "A parameter or the body is invalid: `error.path` names the first field, `error.message` what was expected.",
  401: "No API key, or an unknown or revoked one (or an expired session).",
  403: "The key's scope does not allow this endpoint (see Key scope above), or a request with the session cookie came from another origin (the CSRF check, for anything but GET).",
  404: "Nothing of that id in the key's project.",
  409: "A conflict with what is stored.",
  413: "The body is larger than the limit (the message says which).",
  415: "The body is not `Content-Type: application/json`.",
  429: "Too many failed key attempts from this address; see Retry-After.",
  503: "The database or the job queue is busy or unreachable; nothing was stored. Retry after Retry-After.",
};

/** Whether a parameters schema has any field. */
const hasFields = (schema: z.ZodObject) => Object.keys(schema.shape).length > 0;

/** The error statuses an operation can answer with: those its shape implies, and its own. */
export function errorStatuses(operation: AnyEndpoint): ErrorStatus[] {
  const applies: Record<ErrorStatus, boolean> = {
    400: hasFields(operation.pathParams) || hasFields(operation.query) || Boolean(operation.body),
    401: operation.auth !== "public",
    403: operation.auth !== "public",
    404: hasFields(operation.pathParams),
    409: false,
    413: Boolean(operation.body),
    415: Boolean(operation.body),
    429: operation.auth !== "public",
    503: operation.auth !== "public",
  };
  return ERROR_STATUSES.filter((status) => applies[status] || operation.errors?.[status] !== undefined);
}

function errorResponse(operation: AnyEndpoint, status: ErrorStatus): OpenApiResponse {
  const own = operation.errors?.[status];
  const description = typeof own === "string" ? own : (own?.description ?? ERROR_MEANING[status]);
  const schema = typeof own === "object" ? schemaName(own.schema) : "ApiError";
  return {
    description,
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    content: { "application/json": { schema: ref(schema) } },
  };
}

/** A body's schema: a named contract by reference, an array of one as an array of references. */
function bodySchema(schema: OtherContent["schema"]): JsonSchema {
  if (schema === "text") return { type: "string" };
  if (schema === "object") return { type: "object" };
  if (schema === "binary") return { type: "string", contentMediaType: "application/octet-stream" };
  if (schema instanceof z.ZodArray) return { type: "array", items: ref(schemaName(schema.element as z.ZodType)) };
  return ref(schemaName(schema));
}

function successResponse(response: SuccessResponse): OpenApiResponse {
  const content = response.schema
    ? { "application/json": { schema: ref(schemaName(response.schema)) } }
    : Object.fromEntries((response.content ?? []).map((c) => [c.mediaType, { schema: bodySchema(c.schema) }]));
  const headers = response.headers
    ? Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: "string" } }]))
    : undefined;
  return { description: response.description, ...(headers ? { headers } : {}), content };
}

function parameters(operation: AnyEndpoint): OpenApiParameter[] {
  const of = (schema: z.ZodObject, where: "path" | "query"): OpenApiParameter[] =>
    parameterSchemas(schema).map(({ name, required, schema: json }) => {
      const description = paramDescription(operation, name);
      return { name, in: where, required: where === "path" || required, ...(description ? { description } : {}), schema: json };
    });
  return [...of(operation.pathParams, "path"), ...of(operation.query, "query")];
}

function sizeInWords(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} kB`;
}

/** Which key scopes may call an endpoint (lib/server/auth/access.ts); any other key is answered 403. */
const SCOPE_NOTE: Record<AnyEndpoint["access"], string> = {
  ingest: "Key scope: `ingest` or `admin`.",
  read: "Key scope: `read` or `admin`.",
  write: "Key scope: `admin`.",
  admin: "Key scope: `admin`.",
};

function toOpenApi(operation: AnyEndpoint): OpenApiOperation {
  const params = parameters(operation);
  const responses: Record<string, OpenApiResponse> = {};
  for (const response of operation.responses) responses[String(response.status)] = successResponse(response);
  for (const status of errorStatuses(operation)) responses[String(status)] = errorResponse(operation, status);
  return {
    operationId: operation.id,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.auth === "public" ? operation.description : `${operation.description}\n\n${SCOPE_NOTE[operation.access]}`,
    security: SECURITY[operation.auth],
    ...(params.length ? { parameters: params } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            description: `${operation.body.description} At most ${sizeInWords(operation.body.maxBytes)}.`,
            content: operation.body.schema
              ? { "application/json": { schema: ref(schemaName(operation.body.documentedAs ?? operation.body.schema)) } }
              : Object.fromEntries((operation.body.content ?? []).map((c) => [c.mediaType, { schema: bodySchema(c.schema) }])),
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const endpoint of ENDPOINTS) (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = toOpenApi(endpoint);
  return {
    openapi: "3.1.0",
    info: {
      title: "Cuescope API",
      version: packageJson.version,
      description:
        'Send agent telemetry and read what Cuescope rebuilt from it. Every answer is JSON; every error is `{ "error": { "code", "message", "path"? } }`. ' +
        "Authenticate with a project's API key (`Authorization: Bearer <secret>`, made with `npm run keys`); the browser uses its session cookie instead.",
    },
    servers: [{ url: "/" }],
    tags: TAGS.map((tag) => ({ ...tag })),
    security: [{ bearerKey: [] }],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerKey: { type: "http", scheme: "bearer", description: "A project's API key: `Authorization: Bearer <secret>`." },
        apiKeyHeader: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description: "A project's API key as `x-api-key: <secret>` (OTLP routes only).",
        },
        basicKey: {
          type: "http",
          scheme: "basic",
          description: "A project's API key as the HTTP Basic password, any user name (OTLP routes only).",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE_NAME,
          description: "The browser's session after signing in at /login (same-origin only for anything but GET).",
        },
      },
    },
  };
}

let built: OpenApiDocument | undefined;

/** The document, built once per process (it depends only on the code). */
export function openApiDocument(): OpenApiDocument {
  return (built ??= buildOpenApiDocument());
}
