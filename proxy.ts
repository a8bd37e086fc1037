import { NextResponse, type NextRequest } from "next/server";
import { malformedPathResponse } from "./lib/server/http/malformed-path";

/** Runs before routing: answers 400 for paths Next.js cannot decode (see malformed-path.ts). */
export function proxy(request: NextRequest): Response {
  return malformedPathResponse(request.nextUrl.pathname) ?? NextResponse.next();
}

/** Only paths with dynamic segments, where Next.js decodes them. */
export const config = { matcher: ["/api/:path*", "/runs/:path*", "/copy/replay/:path*"] };
