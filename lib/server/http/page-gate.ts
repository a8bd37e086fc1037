import { hostRefusal } from "@/lib/server/auth/allowed-hosts";
import { assertSameOrigin, isSafeMethod } from "@/lib/server/auth/csrf";
import { hasPersonSessionCookie } from "@/lib/server/auth/person-cookie";
import { sessionTokenFromCookieHeader } from "@/lib/server/auth/sessions";
import { DomainError } from "@/lib/server/errors";

/**
 * What the proxy (proxy.ts) answers for a page request before Next.js renders anything (issue 22),
 * or null to let it through. In this order:
 *
 * 1. A Host that is neither loopback nor in CUESCOPE_ALLOWED_HOSTS (DNS rebinding): 403, naming the
 *    host and the variable — no page, no sign-in, no demo, no Set-Cookie
 *    (lib/server/auth/allowed-hosts.ts).
 * 2. Anything but GET/HEAD/OPTIONS to a page is a server action (sign-in, demo, sign-out): from
 *    another origin, or with `Origin: null`, it is 403 here. Next's own check answers such a
 *    request with 500 ("Invalid Server Actions request"), and lets one without Origin through.
 * 3. A page that shows a project's data, asked for without a session cookie: 307 to the sign-in
 *    page, before any streaming. (A cookie that is present but no longer valid is the page's own
 *    `requireSession` redirect, which is a 307 too as long as no `loading.tsx` or Suspense boundary
 *    starts the response first — lib/server/http/page-gate.test.ts.)
 */
export function pageGate(request: Request): Response | null {
  const badHost = hostRefusal(request.headers);
  if (badHost) return refuse(badHost);
  if (!isSafeMethod(request.method)) {
    try {
      assertSameOrigin(request.headers, "a form of this app (a server action)");
    } catch (error) {
      if (error instanceof DomainError) return refuse(`${error.message}.`);
      throw error;
    }
    return null;
  }
  const url = new URL(request.url);
  const cookie = request.headers.get("cookie");
  if (needsSession(url.pathname) && sessionTokenFromCookieHeader(cookie) === null && !hasPersonSessionCookie(cookie)) {
    url.searchParams.delete("_rsc"); // Next's own marker of a client navigation, not part of the page's address
    const login = new URL("/login", url);
    login.searchParams.set("next", `${url.pathname}${url.search}`);
    return new Response(null, { status: 307, headers: { location: login.toString(), "cache-control": "no-store" } });
  }
  return null;
}

/** The pages that show a project's data (each calls `requireSession`; lib/server/http/page-gate.test.ts checks the list). */
export const SESSION_PAGES = [
  "/runs",
  "/compare",
  "/reviewer",
  "/trends",
  "/alerts",
  "/experiments",
  "/copy",
  "/audit",
  "/keys",
  "/members",
] as const;

export function needsSession(pathname: string): boolean {
  return SESSION_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`));
}

function refuse(message: string): Response {
  return new Response(`403 Forbidden. ${message}\n`, {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}
