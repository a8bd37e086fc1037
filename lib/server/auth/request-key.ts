import { createHash } from "node:crypto";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { requestHostRefusal } from "./allowed-hosts";
import { bearerKey, exporterKey } from "./authorization";
import { clientAddress, knownAddress } from "./client-address";
import { assertSameOrigin, isSafeMethod } from "./csrf";
import { authenticateKey, type Caller } from "./keys";
import { authFailureLimiter, recentlyAcceptedKeys } from "./rate-limit";
import { hasPersonSessionCookie } from "./person-cookie";
import { authenticatePerson, projectFromCookieHeader } from "./person-session";
import { authenticateSession, sessionTokenFromCookieHeader } from "./sessions";

export { SESSION_COOKIE } from "./sessions";

/**
 * Who sends an API request: an `Authorization: Bearer <key>` header (agents, scripts), else the
 * browser's session cookie — a key's (lib/server/auth/sessions.ts) or a person's
 * (lib/server/auth/person-session.ts); pages use the API from the browser. Bearer failures are rate limited
 * per client address; cookie-authenticated requests that change data must be same-origin (CSRF),
 * and a session cookie counts only under a loopback or allowed Host (allowed-hosts.ts; keys under any).
 * The old raw-key cookie (`cuescope_key`) is not accepted any more.
 */
export async function authenticateRequest(db: Database, request: Request): Promise<Caller> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return authenticateKeyLimited(db, bearerKey(authorization), clientAddress(request.headers));
  const cookie = request.headers.get("cookie");
  const token = sessionTokenFromCookieHeader(cookie);
  const person = token === null && hasPersonSessionCookie(cookie);
  if (token === null && !person)
    throw new DomainError("unauthorized", "missing API key: send `Authorization: Bearer <secret key>` (or sign in in the browser)");
  const badHost = requestHostRefusal(request);
  if (badHost) throw new DomainError("forbidden", `the session cookie is not accepted here: ${badHost}`);
  if (!isSafeMethod(request.method)) assertSameOrigin(request.headers);
  const caller =
    token !== null ? await authenticateSession(db, token) : await authenticatePerson(db, request.headers, projectFromCookieHeader(cookie));
  return { ...caller, address: knownAddress(clientAddress(request.headers)) };
}

/**
 * A key check under the wrong-credential limiter: while the address is over it, refused
 * unchecked — unless this very key was accepted recently (a good agent sharing the address).
 * `key` is what lib/server/auth/authorization.ts read from the request (null: none readable), so
 * the same key is the same key in every form it may be sent in (`Bearer`, `bearer`, x-api-key, Basic).
 */
export async function authenticateKeyLimited(db: Database, key: string | null, address: string): Promise<Caller> {
  const limiter = authFailureLimiter();
  const known = recentlyAcceptedKeys();
  const digest = key === null ? null : createHash("sha256").update(key).digest("hex");
  if (digest === null || !known.has(digest)) limiter.assertMayTry(address, "API key checks");
  try {
    const caller: Caller = { ...(await authenticateKey(db, key)), via: "key", address: knownAddress(address) };
    if (digest !== null) known.add(digest);
    return caller;
  } catch (error) {
    if (error instanceof DomainError && error.kind === "unauthorized") limiter.fail(address);
    throw error;
  }
}

/**
 * Who sends an OTLP export (docs/contract/otlp.md#authentication): the project key as
 * `Authorization: Bearer <key>`, as `x-api-key: <key>`, or as the password of HTTP Basic (any user
 * name) — the forms OpenTelemetry exporters and collectors are commonly configured with
 * (`exporterKey`). Each is checked as a Bearer key, under the same rate limit. No session cookie:
 * exports come from agents.
 */
export async function authenticateExporter(db: Database, request: Request): Promise<Caller> {
  const sent = exporterKey(request.headers);
  if (sent === null) {
    throw new DomainError(
      "unauthorized",
      "missing API key: send `Authorization: Bearer <secret key>`, `x-api-key: <secret key>`, or HTTP Basic with the key as the password",
    );
  }
  return authenticateKeyLimited(db, "key" in sent ? sent.key : null, clientAddress(request.headers));
}
