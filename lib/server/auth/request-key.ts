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
