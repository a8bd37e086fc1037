import type { ApiInput } from "@/lib/queries/api-input";
import { runIdFromRoute } from "@/lib/queries/paths";
import { DomainError } from "@/lib/server/errors";

/**
 * Reads a JSON body of at most `maxBytes` without holding more than that in memory: 415 for another
 * content type, 413 beyond the limit (the limit is in the message), 400 for text that is not JSON.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new DomainError("unsupported_media_type", `expected Content-Type: application/json, got ${type ? JSON.stringify(type) : "none"}`);
  }
  const text = new TextDecoder().decode(await readBodyBytes(request, maxBytes));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DomainError("invalid", `the body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A request's body as bytes, at most `maxBytes` of them: 413 (the limit in the message) as soon as a
 * declared or streamed length goes beyond, without holding more than the limit in memory.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new DomainError("too_large", `the body is larger than the limit of ${maxBytes} bytes (${formatMb(maxBytes)}); split the batch`);
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

export function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
}

/** The URL's query string as an object of strings (the last value wins for a repeated name). */
export function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/**
 * A request's raw input: its path's parameters as decoded (a run id as itself: the `~?runId=..`
 * placeholder of the ids `.` and `..` is read back, see lib/queries/paths.ts) and its query string
 * (the last value wins for a repeated name).
 */
export function routeInput(request: Request, params: Record<string, string>): ApiInput {
  const path = { ...params };
  if (params.runId !== undefined)
    path.runId = runIdFromRoute(params.runId, new URL(request.url).searchParams, { decode: false }) ?? params.runId;
  return { path, query: queryOf(request) };
}
