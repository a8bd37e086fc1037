import "server-only";
import { KEY_SCOPE_HELP } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import {
  arrivedForwarded,
  clientAddress,
  isHttps,
  isLoopback,
  requestOrigin,
  trustedProxyHops,
  UNKNOWN_ADDRESS,
  type HeaderSource,
} from "./client-address";
import { hostRefusal } from "./allowed-hosts";
import { mayAccess } from "./access";
import { assertSameOrigin } from "./csrf";
import { readDemoKey } from "./demo-key";
import { authenticate } from "./keys";
import { authFailureLimiter } from "./rate-limit";
import { safeNextPath } from "./redirect";
import { endBrowserSessions } from "./browser-sessions";
import { createSession, SESSION_COOKIE, sessionCookieOptions } from "./sessions";

/**
 * The sign-in page's logic (lib/server/auth/actions.ts holds the server actions, thin wrappers around it): the request's
 * headers and cookie jar come in, a redirect target or an error message for the form comes out.
 */
export interface CookieOptions {
  httpOnly?: boolean;
  sameSite?: "lax" | "strict" | "none";
  secure?: boolean;
  path?: string;
  maxAge?: number;
}

export interface CookieJar {
  get(name: string): { value: string } | undefined;
  set(name: string, value: string, options: CookieOptions): unknown;
  delete(name: string): unknown;
}

export type SignInResult = { ok: true; redirectTo: string } | { ok: false; error: string };

export function appOrigin(headers: HeaderSource): string {
  return requestOrigin(headers) ?? "http://cuescope.invalid";
}

/**
 * Server actions check Origin against Host themselves; this also refuses a request that names no
 * origin, and one addressed to a host that is neither loopback nor allowed (DNS rebinding: no
 * session, no demo; see allowed-hosts.ts).
 */
export function sameOriginOrError(headers: HeaderSource): string | null {
  const badHost = hostRefusal(headers);
  if (badHost) return badHost;
  try {
    assertSameOrigin(headers, "a sign-in form");
    return null;
  } catch (error) {
    if (error instanceof DomainError) return `${error.message}.`;
    throw error;
  }
}

async function openSession(db: Database, key: string, demo: boolean, headers: HeaderSource, jar: CookieJar): Promise<void> {
  const caller = await authenticate(db, `Bearer ${key}`);
  if (!mayAccess(caller, "read")) {
    throw new DomainError(
      "forbidden",
      `this key's scope is ${caller.scope} (${KEY_SCOPE_HELP[caller.scope!]}): sign in with a read or admin key`,
    );
  }
  // Rotation: whatever session the browser had (a key's or a person's) ends here.
  await endBrowserSessions(db, headers, jar);
  const { token } = await createSession(db, caller, { demo });
  jar.set(SESSION_COOKIE, token, sessionCookieOptions(isHttps(headers)));
}

/** Sign-in with a pasted project key; wrong keys count against the client address's limit. */
export async function signInWithKey(
  db: Database,
  rawKey: string,
  next: unknown,
  headers: HeaderSource,
  jar: CookieJar,
): Promise<SignInResult> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  const key = rawKey.trim();
  if (!key) return { ok: false, error: "Paste a project API key (it starts with cs_)." };
  const address = clientAddress(headers);
  const limiter = authFailureLimiter();
  const wait = limiter.retryAfter(address);
  if (wait > 0) return { ok: false, error: tooManyMessage(wait) };
  try {
    await openSession(db, key, false, headers, jar);
  } catch (error) {
    // A good key that may not sign in is no wrong guess: not counted against the address.
    if (error instanceof DomainError && error.kind === "forbidden")
      return { ok: false, error: `That key cannot sign in: ${error.message}.` };
    if (!(error instanceof DomainError) || error.kind !== "unauthorized") throw error;
    const next = limiter.fail(address);
    return { ok: false, error: `That key was not accepted: ${error.message}.${next > 0 ? ` ${tooManyMessage(next)}` : ""}` };
  }
  return { ok: true, redirectTo: safeNextPath(next, appOrigin(headers)) };
}

function tooManyMessage(seconds: number): string {
  const limiter = authFailureLimiter();
  return `Too many wrong keys from your address: wait ${seconds} s before trying again (${limiter.burst} tries at once, then one every ${limiter.refillSeconds} s).`;
}

/** Why the demo button is refused for this request, or null when the connection is a trusted loopback one. */
export function demoRefusal(headers: HeaderSource): string | null {
  const address = clientAddress(headers);
  if (address === UNKNOWN_ADDRESS) {
    return "The demo project opens only on a loopback connection, and this server cannot tell where your connection comes from (start it with npm start, which runs scripts/server.mjs). Sign in with a project API key instead.";
  }
  if (trustedProxyHops() === 0 && isLoopback(address) && arrivedForwarded(headers)) {
    return "The demo project opens only on a direct loopback connection, and this request came through a proxy (it carries X-Forwarded-For, Forwarded or X-Real-IP). Sign in with a project API key, or set CUESCOPE_TRUST_PROXY if the proxy is yours (see README, Security).";
  }
  if (!isLoopback(address)) {
    const via = trustedProxyHops() > 0 ? " (as forwarded by the trusted proxy)" : "";
    return `The demo project opens only from the machine that runs Cuescope (a loopback connection); your connection comes from ${address}${via}. Sign in with a project API key (npm run keys -- create --project NAME on the server), or open Cuescope on that machine at http://127.0.0.1.`;
  }
  return null;
}

/** The embedded database's demo project: only over a trusted loopback connection; the browser gets a session, never the demo key. */
export async function signInToDemo(db: Database, next: unknown, headers: HeaderSource, jar: CookieJar): Promise<SignInResult> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  const key = readDemoKey();
  if (!key) return { ok: false, error: "This server has no demo project." };
  const notLocal = demoRefusal(headers);
  if (notLocal) return { ok: false, error: notLocal };
  try {
    await openSession(db, key, true, headers, jar);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "unauthorized")
      return { ok: false, error: `The demo project cannot be opened: ${error.message}.` };
    throw error;
  }
  return { ok: true, redirectTo: safeNextPath(next, appOrigin(headers)) };
}

/** Sign-out: ends the browser's session (a key's or a person's) and clears its cookie. */
export async function signOut(db: Database, headers: HeaderSource, jar: CookieJar): Promise<{ ok: boolean; error?: string }> {
  const refused = sameOriginOrError(headers);
  if (refused) return { ok: false, error: refused };
  await endBrowserSessions(db, headers, jar);
  return { ok: true };
}
