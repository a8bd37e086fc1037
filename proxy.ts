import { NextResponse, type NextRequest } from "next/server";
import { malformedPathResponse } from "./lib/server/http/malformed-path";
import { pageGate } from "./lib/server/http/page-gate";

/**
 * Runs before routing: answers 400 for paths Next.js cannot decode (see malformed-path.ts); for
 * pages (not /api, whose routes check their own callers), refuses a Host that is not this server's,
 * a server action from another origin, and a data page without a session (see page-gate.ts).
 */
export function proxy(request: NextRequest): Response {
  const pathname = request.nextUrl.pathname;
  const malformed = malformedPathResponse(pathname);
  if (malformed) return malformed;
  if (pathname === "/api" || pathname.startsWith("/api/")) return NextResponse.next();
  return pageGate(request) ?? NextResponse.next();
}

/** Every path but Next's static files and the icon (public to anyone, like any site's). */
export const config = { matcher: ["/((?!_next/static|_next/image|favicon\\.svg).*)"] };
