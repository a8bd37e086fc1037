import { json } from "@/lib/server/http/errors-to-response";

/** Any /api path no route serves: a JSON 404 like every other API answer (not the HTML 404 page). */
function notFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return json(404, {
    error: { code: "not_found", message: `no API at ${request.method} ${pathname.slice(0, 200)}; see /api/v1 in the README` },
  });
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
