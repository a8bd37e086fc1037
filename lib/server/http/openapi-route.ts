import "server-only";
import { openApiDocument } from "@/lib/api-docs/document";

/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API (lib/api-docs); no key needed, it
 * documents the API and shows no data. It changes only with the code, so caches may keep it a while.
 */
export async function openApiRoute(): Promise<Response> {
  return new Response(JSON.stringify(openApiDocument()), {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300, stale-while-revalidate=3600",
      "access-control-allow-origin": "*",
    },
  });
}
