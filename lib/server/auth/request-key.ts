import { createHash } from "node:crypto";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { clientAddress } from "./client-address";
import { assertSameOrigin, isSafeMethod } from "./csrf";
import { authenticate, type Caller } from "./keys";
import { authFailureLimiter, recentlyAcceptedKeys } from "./rate-limit";
import { authenticateSession, sessionTokenFromCookieHeader } from "./sessions";

export { SESSION_COOKIE } from "./sessions";

/**
 * Who sends an API request: an `Authorization: Bearer <key>` header (agents, scripts), else the
 * browser's session cookie (pages use the API from the browser). Bearer failures are rate limited
 * per client address; cookie-authenticated requests that change data must be same-origin (CSRF).
 * The old raw-key cookie (`cuescope_key`) is not accepted any more.
 */
export async function authenticateRequest(db: Database, request: Request): Promise<Caller> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return authenticateBearer(db, authorization, clientAddress(request.headers));
  const token = sessionTokenFromCookieHeader(request.headers.get("cookie"));
  if (token === null)
    throw new DomainError("unauthorized", "missing API key: send `Authorization: Bearer <secret key>` (or sign in in the browser)");
  if (!isSafeMethod(request.method)) assertSameOrigin(request.headers);
  return authenticateSession(db, token);
}

/**
 * A Bearer key check under the wrong-credential limiter: while the address is over it, refused
 * unchecked — unless this very key was accepted recently (a good agent sharing the address).
 */
export async function authenticateBearer(db: Database, authorization: string, address: string): Promise<Caller> {
  const limiter = authFailureLimiter();
  const known = recentlyAcceptedKeys();
  const digest = createHash("sha256").update(authorization).digest("hex");
  if (!known.has(digest)) limiter.assertMayTry(address, "API key checks");
  try {
    const caller: Caller = { ...(await authenticate(db, authorization)), via: "key" };
    known.add(digest);
    return caller;
  } catch (error) {
    if (error instanceof DomainError && error.kind === "unauthorized") limiter.fail(address);
    throw error;
  }
}

/**
 * Who sends an OTLP export (docs/contract/otlp.md#authentication): the project key as
 * `Authorization: Bearer <key>`, as `x-api-key: <key>`, or as the password of HTTP Basic (any user
 * name) — the forms OpenTelemetry exporters and collectors are commonly configured with. Each is
 * checked as a Bearer key, under the same rate limit. No session cookie: exports come from agents.
 */
export async function authenticateExporter(db: Database, request: Request): Promise<Caller> {
  const authorization = exporterAuthorization(request.headers);
  if (authorization === null) {
    throw new DomainError(
      "unauthorized",
      "missing API key: send `Authorization: Bearer <secret key>`, `x-api-key: <secret key>`, or HTTP Basic with the key as the password",
    );
  }
  return authenticateBearer(db, authorization, clientAddress(request.headers));
}

/** The exporter's credentials as a Bearer authorization value (null when it sent none). */
export function exporterAuthorization(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (!basic) return authorization;
    const credentials = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = credentials.indexOf(":");
    // Not user:password: passed on as it is, and refused as a missing key.
    return colon < 0 ? authorization : `Bearer ${credentials.slice(colon + 1)}`;
  }
  const apiKey = headers.get("x-api-key");
  return apiKey !== null && apiKey.trim() !== "" ? `Bearer ${apiKey.trim()}` : null;
}
