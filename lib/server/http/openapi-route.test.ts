import { describe, expect, it } from "vitest";
import { SESSION_COOKIE_NAME } from "@/lib/api-docs/document";
import { OPERATIONS } from "@/lib/api-docs/operations";
import { SESSION_COOKIE } from "@/lib/server/auth/sessions";
import type { Loader } from "@/lib/server/loaders/define-loader";
import { replayJobLoader, replayListLoader, replayMatchingLoader, replayTurnLoader } from "@/lib/server/loaders/replay";
import { reviewerCandidatesLoader, reviewerFunnelLoader } from "@/lib/server/loaders/reviewer";
import { runFacetsLoader, runListLoader, runSummaryLoader, runTimelineLoader, turnDetailLoader } from "@/lib/server/loaders/runs";
import { copyVersionsLoader, policyVersionsLoader } from "@/lib/server/loaders/versions";
import { GET } from "@/app/api/v1/openapi.json/route";

describe("GET /api/v1/openapi.json", () => {
  it("answers 200 JSON without a key, cacheable", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toMatch(/public/);
    const body = await response.json();
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toContain("/api/v1/ingest");
  });

  it("names the session cookie the server sets", () => {
    expect(SESSION_COOKIE_NAME).toBe(SESSION_COOKIE);
  });
});

/** The loader each documented loader route answers with (lib/server/http/*.ts). */
const LOADERS: Record<string, Loader<unknown, unknown>> = {
  listRuns: runListLoader,
  getRunFacets: runFacetsLoader,
  getRunSummary: runSummaryLoader,
  getTurnDetail: turnDetailLoader,
  getRunTimeline: runTimelineLoader,
  listReviewerCandidates: reviewerCandidatesLoader,
  getReviewerFunnel: reviewerFunnelLoader,
  listCopyVersions: copyVersionsLoader,
  listPolicyVersions: policyVersionsLoader,
  getReplay: replayJobLoader,
  listReplays: replayListLoader,
  countReplayRuns: replayMatchingLoader,
  getReplayTurn: replayTurnLoader,
};

const keysOf = (schema: unknown) => Object.keys((schema as { shape?: object } | undefined)?.shape ?? {}).sort();

describe("the documented parameters are the loaders' own", () => {
  it.each(Object.keys(LOADERS))("%s", (operationId) => {
    const operation = OPERATIONS.find((op) => op.operationId === operationId);
    const loader = LOADERS[operationId];
    expect(keysOf(operation?.pathParams)).toEqual(keysOf(loader.path));
    // The funnel documents the candidates' filters without the paging it ignores.
    const ignored = operationId === "getReviewerFunnel" ? ["cursor", "limit"] : [];
    expect(keysOf(operation?.query)).toEqual(keysOf(loader.query).filter((key) => !ignored.includes(key)));
  });
});
