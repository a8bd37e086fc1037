/**
 * The browser's session: the project's API key in an httpOnly cookie, set by the sign-in page.
 * Pages and the API accept it in place of an `Authorization: Bearer` header.
 */
export const SESSION_COOKIE = "cuescope_key";

export const SESSION_COOKIE_OPTIONS = {
  httpOnly: true,
  sameSite: "lax" as const,
  path: "/",
  maxAge: 60 * 60 * 24 * 30,
};

/** The key a request carries: its bearer header, else the session cookie. */
export function keyFromRequest(request: Request): string | null {
  const bearer = request.headers.get("authorization");
  if (bearer) return bearer;
  const cookie = request.headers.get("cookie") ?? "";
  const match = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(cookie);
  return match ? `Bearer ${decodeURIComponent(match[1])}` : null;
}
