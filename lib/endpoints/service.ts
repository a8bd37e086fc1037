import { ZHealth } from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** Health and this reference; no key needed. */
export const serviceApi = {
  health: endpoint({
    id: "getHealth",
    method: "GET",
    path: "/api/v1/health",
    tag: "Service",
    summary: "Health",
    description:
      "Which database this server uses, whether it answers within 3 s, and `eventLoop.worstLagMs`: the longest this server process's event loop was blocked in the last `eventLoop.windowS` (60) seconds, a stall every request waited through. No key needed, no data shown.",
    auth: "public",
    responses: [{ status: 200, description: "The database answers.", schema: ZHealth }],
    errors: { 503: { description: "The database does not answer: `ok` is false, with the error; header Retry-After.", schema: ZHealth } },
  }),
  openApi: endpoint({
    id: "getOpenApiDocument",
    method: "GET",
    path: "/api/v1/openapi.json",
    tag: "Service",
    summary: "This reference as OpenAPI 3.1",
    description:
      "The OpenAPI 3.1 document of this API, generated from the same contracts the server parses with. No key needed. Readable at /docs/api.",
    auth: "public",
    responses: [{ status: 200, description: "The OpenAPI document.", content: [{ mediaType: "application/json", schema: "object" }] }],
  }),
};
