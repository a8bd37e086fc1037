import type { z } from "zod";
import { problemsFrom } from "@/lib/contracts";

/** What kind of failure a domain error is; the HTTP layer alone maps kinds to status codes. */
export type DomainErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "unavailable";

/** A failure the caller can act on. Carries no HTTP details. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly path?: string,
    /** For `rate_limited` and `unavailable`: seconds after which a retry may succeed. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Validates a value with a contract; a failure names the first field path and the reason. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [first, ...rest] = problemsFrom(result.error);
  const more = rest.length ? ` (and ${rest.length} more: ${rest.map((p) => `${p.path || what}: ${p.message}`).join("; ")})` : "";
  throw new DomainError("invalid", `${what}${first.path ? `.${first.path}` : ""}: ${first.message}${more}`, first.path || undefined);
}
