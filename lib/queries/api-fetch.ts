import type { z } from "zod";
import { ZApiError } from "@/lib/contracts";

/** An API answer that was not a success, with the server's own message. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The field the server named, e.g. `copy.context.*` (when it named one). */
    readonly path?: string,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/** GETs a same-origin API path (the session cookie authenticates) and parses it with its contract. */
export async function apiGet<S extends z.ZodType>(path: string, schema: S, signal?: AbortSignal): Promise<z.output<S>> {
  const response = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" }, signal });
  return readAnswer(path, response, schema);
}

/** POSTs JSON to a same-origin API path and parses the answer with its contract. */
export async function apiPost<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.output<S>> {
  return apiSend("POST", path, body, schema);
}

/** Sends JSON with another method (PUT, PATCH, DELETE: no body) to a same-origin API path and parses the answer. */
export async function apiSend<S extends z.ZodType>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body: unknown,
  schema: S,
): Promise<z.output<S>> {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { accept: "application/json", ...(method === "DELETE" ? {} : { "content-type": "application/json" }) },
    ...(method === "DELETE" ? {} : { body: JSON.stringify(body ?? {}) }),
  });
  return readAnswer(path, response, schema);
}

/** DELETEs a same-origin API path that answers 204 No Content (an error answer throws as any other). */
export async function apiDeleteNoContent(path: string): Promise<void> {
  const response = await fetch(path, { method: "DELETE", credentials: "same-origin", headers: { accept: "application/json" } });
  if (response.status === 204) return;
  await readAnswer(path, response, ZApiError.optional());
}

async function readAnswer<S extends z.ZodType>(path: string, response: Response, schema: S): Promise<z.output<S>> {
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = ZApiError.safeParse(body);
    if (parsed.success) throw new ApiRequestError(parsed.data.error.message, response.status, parsed.data.error.path);
    throw new ApiRequestError(`${path} answered ${response.status}`, response.status);
  }
  return schema.parse(body);
}

/** A query string from defined, non-empty values, in a stable order. */
export function queryString(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(values).sort()) {
    const value = values[key];
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}
