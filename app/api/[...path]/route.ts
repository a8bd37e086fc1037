import { serveApi } from "@/lib/server/http/api";

/**
 * Every `/api` request: the endpoints are declared once in lib/endpoints and served by
 * lib/server/http/api.ts, which answers a path no endpoint has with a JSON 404 (not the HTML 404
 * page) and a method the path does not take with a JSON 405.
 */
export const GET = serveApi;
export const HEAD = serveApi;
export const POST = serveApi;
export const PUT = serveApi;
export const PATCH = serveApi;
export const DELETE = serveApi;
