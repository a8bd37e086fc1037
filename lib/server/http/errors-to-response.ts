import { DomainError, type DomainErrorKind } from "@/lib/server/errors";
import { isTransientDatabaseError, isUniqueViolation } from "@/lib/server/db/errors";
import { jsonTextOf } from "@/lib/server/json-text";

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** An error answer before it is encoded: status, the JSON error body, and headers (Retry-After). */
export interface ErrorAnswer {
  status: number;
  error: { code: string; message: string; path?: string };
  headers: Record<string, string>;
}

/** The one place that turns failures into HTTP answers: a JSON body naming the problem, logged once. */
export function errorResponse(error: unknown): Response {
  const answer = errorAnswer(error);
  return json(answer.status, { error: answer.error }, answer.headers);
}

/** What errorResponse answers, for routes that encode it otherwise (OTLP's google.rpc.Status). */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (isDomainError(error)) {
    const headers: Record<string, string> =
      error.retryAfterSeconds !== undefined ? { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) } : {};
    return {
      status: STATUS[error.kind],
      error: { code: error.kind, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) },
      headers,
    };
  }
  if (isTransientDatabaseError(error)) {
    console.error(`[cuescope] database unavailable: ${(error as Error).message}`);
    return {
      status: 503,
      error: { code: "unavailable", message: "the database is busy or unreachable right now; nothing was stored — retry later" },
      headers: { "retry-after": "5" },
    };
  }
  if (isUniqueViolation(error)) {
    // A concurrent writer stored the same thing first; the service had no more specific answer.
    return {
      status: 409,
      error: { code: "conflict", message: "this was stored by a concurrent request first; read it back, or retry with a new name or id" },
      headers: {},
    };
  }
  console.error("[cuescope] unexpected error", error);
  return { status: 500, error: { code: "internal", message: "unexpected server error; it has been logged" }, headers: {} };
}

/**
 * A DomainError, also one thrown by another bundled copy of lib/server/errors.ts (the production
 * build has one per layer: route handlers, server actions), where `instanceof` alone says no.
 */
function isDomainError(error: unknown): error is DomainError {
  if (error instanceof DomainError) return true;
  if (!(error instanceof Error) || error.name !== "DomainError") return false;
  const kind = (error as { kind?: unknown }).kind;
  return typeof kind === "string" && kind in STATUS;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, jsonTextOf(body), headers);
}

/** A JSON answer from text that already is JSON (stored documents are sent without re-encoding). */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
