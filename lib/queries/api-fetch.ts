import type { z } from "zod";
import { ZApiError } from "../contracts";

/** An API answer that was not a success, with the server's own message. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/** GETs a same-origin API path (the session cookie authenticates) and parses it with its contract. */
export async function apiGet<S extends z.ZodType>(path: string, schema: S, signal?: AbortSignal): Promise<z.output<S>> {
  const response = await fetch(path, { credentials: "same-origin", headers: { accept: "application/json" }, signal });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = ZApiError.safeParse(body);
    throw new ApiRequestError(parsed.success ? parsed.data.error.message : `${path} answered ${response.status}`, response.status);
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
