import type { Database } from "@/lib/server/db";
import type { HeaderSource } from "./client-address";
import { hasPersonSessionCookie, PERSON_SESSION_COOKIE } from "./person-cookie";
import { peopleAuth } from "./people-auth";
import { LEGACY_KEY_COOKIE, revokeSession, SESSION_COOKIE } from "./sessions";
import type { CookieJar } from "./sign-in";

/**
 * The browser's sessions, whichever kind (a key's, lib/server/auth/sessions.ts; a person's,
 * better-auth's): signing in ends the one the browser had (session rotation: a token planted
 * before sign-in is worth nothing after), and so does signing out.
 */

/** The request headers better-auth reads a session from (its cookie) and records with one (the user agent). */
export function authHeaders(headers: HeaderSource): Headers {
  const out = new Headers();
  for (const name of ["cookie", "user-agent", "origin", "host"]) {
    const value = headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return out;
}

/** Ends the browser's key session and person session, if any, and clears their cookies. */
export async function endBrowserSessions(db: Database, headers: HeaderSource, jar: CookieJar): Promise<void> {
  const token = jar.get(SESSION_COOKIE)?.value;
  if (token) await revokeSession(db, token);
  if (hasPersonSessionCookie(headers.get("cookie"))) {
    const auth = await peopleAuth(db);
    // Deletes the session row the signed cookie names; an unknown or ended one is harmless.
    await auth.api.signOut({ headers: authHeaders(headers) }).catch(() => undefined);
  }
  for (const name of [SESSION_COOKIE, PERSON_SESSION_COOKIE, `__Secure-${PERSON_SESSION_COOKIE}`]) {
    if (jar.get(name)) jar.delete(name);
  }
  jar.delete(LEGACY_KEY_COOKIE);
}
