import { DomainError, type DomainErrorKind } from "../errors";
import { DataDirLockedError } from "../db";

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unavailable: 503,
};

/** The one place that turns failures into HTTP answers: a JSON body naming the problem, logged once. */
export function errorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    return json(STATUS[error.kind], { error: { code: error.kind, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) } });
  }
  if (isUnavailable(error)) {
    console.error(`[cuescope] database unavailable: ${(error as Error).message}`);
    return json(
      503,
      { error: { code: "unavailable", message: "the database is unavailable right now; nothing was stored — retry later" } },
      { "retry-after": "5" },
    );
  }
  console.error("[cuescope] unexpected error", error);
  return json(500, { error: { code: "internal", message: "unexpected server error; it has been logged" } });
}

function isUnavailable(error: unknown): boolean {
  if (error instanceof DataDirLockedError) return true;
  const text = `${(error as { code?: string })?.code ?? ""} ${(error as Error)?.message ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|57P01|57P03|Connection terminated|connect to the database|DatabaseNotReachable|P1001|P1017/i.test(text);
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), headers);
}

/** A JSON answer from text that already is JSON (stored documents are sent without re-encoding). */
export function jsonText(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
