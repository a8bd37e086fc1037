/**
 * A path whose percent-encoding does not decode (`/runs/a%ZZ`, a lone `%`, a truncated UTF-8
 * sequence) makes Next.js fail while matching a dynamic segment, before any route runs, and it
 * answers a bare "Internal Server Error". The proxy calls this first: such a path is a client error.
 */
export function malformedPathResponse(pathname: string): Response | null {
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      const message = `the path is not valid percent-encoding: ${JSON.stringify(segment.slice(0, 60))} (encode each segment with encodeURIComponent)`;
      if (pathname.startsWith("/api/")) {
        return new Response(JSON.stringify({ error: { code: "invalid", message, path: "path" } }), {
          status: 400,
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
        });
      }
      return new Response(`Bad request: ${message}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
  }
  return null;
}
