/**
 * The name of a person's session cookie (better-auth's, with Cuescope's prefix; `__Secure-` in
 * front over https). Kept apart from lib/server/auth/people-auth.ts so the proxy's gate can look for
 * the cookie without loading the library.
 */
export const PERSON_COOKIE_PREFIX = "cuescope";
export const PERSON_SESSION_COOKIE = `${PERSON_COOKIE_PREFIX}.session_token`;

/** Whether a Cookie header carries a person's session cookie (its presence only: the gate's check, not authentication). */
export function hasPersonSessionCookie(cookie: string | null): boolean {
  return new RegExp(`(?:^|;\\s*)(?:__Secure-)?${PERSON_SESSION_COOKIE.replace(".", "\\.")}=[^;\\s]`).test(cookie ?? "");
}
