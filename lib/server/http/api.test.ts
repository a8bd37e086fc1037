import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SESSION_COOKIE_NAME } from "@/lib/api-docs/document";
import { ENDPOINTS, endpoint } from "@/lib/endpoints";
import { SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { LOADERS } from "@/lib/server/loaders";
import { matchEndpoint, ROUTES, serveApi } from "./api";
import { answer, endpointRoute } from "./endpoint-route";

/**
 * The API's one entry (app/api/[...path]/route.ts → serveApi): every endpoint declared in
 * lib/endpoints is served, each request goes to the one endpoint its method and path name, and
 * (outside production) an answer its declaration does not allow is an error.
 */

const request = (method: string, path: string) => new Request(`http://127.0.0.1${path}`, { method });

describe("the routes", () => {
  it("serve every declared endpoint, each once; a GET endpoint with a loader is served by it", () => {
    expect([...ROUTES.keys()].sort()).toEqual(ENDPOINTS.map((e) => e.id).sort());
    for (const [id, loader] of LOADERS) {
      expect(loader.endpoint.method, id).toBe("GET");
      expect(ROUTES.get(id)?.endpoint, id).toBe(loader.endpoint);
    }
  });
});

describe("matchEndpoint", () => {
  const id = (method: string, path: string) => {
    const match = matchEndpoint(method, path);
    return match && "endpoint" in match ? [match.endpoint.id, match.params] : match;
  };

  it.each([
    ["GET", "/api/v1/runs", ["listRuns", {}]],
    ["GET", "/api/v1/runs/export", ["exportRuns", {}]],
    ["GET", "/api/v1/runs/r-1", ["getRunSummary", { runId: "r-1" }]],
    ["GET", "/api/v1/runs/a%2Fb%20c/timeline", ["getRunTimeline", { runId: "a/b c" }]],
    ["GET", "/api/v1/runs/~/turns/7", ["getTurnDetail", { runId: "~", turn: "7" }]],
    ["GET", "/api/v1/replay/matching", ["countReplayRuns", {}]],
    ["GET", "/api/v1/replay/j1", ["getReplay", { id: "j1" }]],
    ["POST", "/api/v1/replay/j1/cancel", ["cancelReplay", { id: "j1" }]],
    ["PATCH", "/api/v1/runs/r/comments/c9", ["editComment", { runId: "r", commentId: "c9" }]],
    ["HEAD", "/api/v1/runs/r/decisions", ["getRunDecisions", { runId: "r" }]],
    ["POST", "/api/v1/otlp/v1/logs", ["otlpExportLogs", {}]],
  ])("%s %s", (method, path, expected) => {
    expect(id(method, path)).toEqual(expected);
  });

  it("names the methods a path takes when the method is not one of them, the most specific path's only", () => {
    expect(matchEndpoint("DELETE", "/api/v1/runs")).toEqual({ allowed: ["GET"] });
    expect(matchEndpoint("POST", "/api/v1/runs/export")).toEqual({ allowed: ["GET"] });
    expect(matchEndpoint("PUT", "/api/v1/views/v1")).toEqual({ allowed: ["PATCH", "DELETE"] });
  });

  it("matches nothing for another path or a segment that is not valid percent-encoding", () => {
    expect(matchEndpoint("GET", "/api/v1/nothing")).toBeNull();
    expect(matchEndpoint("GET", "/api/v1/runs/r/decisions/more")).toBeNull();
    expect(matchEndpoint("GET", "/api/v1/runs/%E0%A4%A")).toBeNull();
  });
});

describe("serveApi", () => {
  it("serves the OpenAPI document without a key, cacheable", async () => {
    const response = await serveApi(request("GET", "/api/v1/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toMatch(/public/);
    const body = await response.json();
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toContain("/api/v1/ingest");
  });

  it("answers HEAD with the GET's status and headers and no body", async () => {
    const response = await serveApi(request("HEAD", "/api/v1/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.text()).toBe("");
  });

  it("answers a JSON 405 with Allow, and a JSON 404 for a path no endpoint has", async () => {
    const refused = await serveApi(request("DELETE", "/api/v1/health"));
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, HEAD");
    expect((await refused.json()).error.code).toBe("method_not_allowed");
    const missing = await serveApi(request("GET", "/api/v1/runz"));
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toMatchObject({ code: "not_found", message: expect.stringMatching(/GET \/api\/v1\/runz/) });
  });

  it("names the session cookie the server sets", () => {
    expect(SESSION_COOKIE_NAME).toBe(SESSION_COOKIE);
  });
});

describe("an answer its declaration does not allow (development and tests)", () => {
  const probe = endpoint({
    id: "probe",
    method: "GET",
    path: "/api/v1/probe",
    tag: "Service",
    summary: "probe",
    description: "A test endpoint.",
    auth: "public",
    responses: [{ status: 200, description: "ok", schema: z.object({ n: z.number() }) }],
  });
  const serve = (result: unknown) => endpointRoute(probe, async () => result, { noDatabase: true })(request("GET", "/api/v1/probe"));

  it("is sent as declared when it is", async () => {
    const response = await serve({ n: 1 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ n: 1 });
  });

  it("is a 500 when the body is not what the response's contract says, or the status is not declared", async () => {
    expect((await serve({ n: "1" })).status).toBe(500);
    expect((await serve(answer(201, { n: 1 }))).status).toBe(500);
  });
});
