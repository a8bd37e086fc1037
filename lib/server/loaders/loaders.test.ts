import { QueryClient, type FetchQueryOptions, type QueryKey } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { copyVersionsQuery, policyVersionsQuery } from "@/lib/queries/copy";
import { commentedTurnsQuery, commentsQuery } from "@/lib/queries/comments";
import { runOtlpRecordsQuery } from "@/lib/queries/otlp";
import { makeQueryClient } from "@/lib/queries/query-client";
import {
  replayCompareQuery,
  replayJobQuery,
  replayListQuery,
  replayMatchingQuery,
  replayTurnQuery,
  replayWhatIfRunQuery,
} from "@/lib/queries/replay";
import { reviewerCandidatesQuery, reviewerFunnelQuery } from "@/lib/queries/reviewer";
import { parseReviewerUrl, REVIEWER_PAGE_SIZE } from "@/lib/queries/reviewer-url";
import { parseRunListUrl } from "@/lib/queries/run-list-url";
import { runFacetsQuery, runSearchQuery, runsListQuery, runSummaryQuery, runTimelineQuery, turnDetailQuery } from "@/lib/queries/runs";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";

import { createComment } from "@/lib/server/comments/comments";

import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { storeOtlpRecords } from "@/lib/server/otlp/store-records";
import { startReplay } from "@/lib/server/replay/replay-jobs";
import { smallRun } from "@/lib/server/testing/events";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { inlineReplays } from "@/lib/server/testing/jobs";
import { createCopyVersion, createPolicyVersion } from "@/lib/server/versions/versions";
import type { Loader, LoaderContext } from "./define-loader";
import { fetchQuery, type ServerQuery } from "./prefetch";
import {
  replayCompareLoader,
  replayJobLoader,
  replayListLoader,
  replayMatchingLoader,
  replayTurnLoader,
  replayWhatIfRunLoader,
} from "./replay";
import { reviewerCandidatesLoader, reviewerFunnelLoader } from "./reviewer";
import { commentedTurnsLoader, commentsLoader } from "./comments";
import { runOtlpRecordsLoader } from "./otlp";
import { runFacetsLoader, runListLoader, runSearchLoader, runSummaryLoader, runTimelineLoader, turnDetailLoader } from "./runs";
import { copyVersionsLoader, policyVersionsLoader } from "./versions";
import { runEffectivenessLoader, trendsLoader } from "./trends";

import { runEffectivenessQuery, trendsQuery } from "@/lib/queries/trends";
import { serveApi } from "@/lib/server/http/api";
import { type AnyEndpoint } from "@/lib/endpoints";

/**
 * Each page prefetches a query of lib/queries with the loader its route answers with. Here the
 * browser's side (the query's own queryFn, its fetch answered by the route handler) and the page's
 * side (the same query through the loader) must call the loader with the same parsed input and
 * end with the same data: defaults such as a list's `limit` come from the schema, never the page.
 */

const ETF_RUN = "loaders-etf";

describe.each(testDatabases())("loaders shared by the routes and the pages on $name", (kind) => {
  let db: Database;
  let secret: string;
  let context: LoaderContext;
  let jobId: string;
  /** The URLs the browser's side fetched. */
  const fetched: string[] = [];

  /** The browser's fetch of a same-origin API path, answered as app/api/[...path]/route.ts answers it. */
  async function fetchThroughRoutes(path: string): Promise<Response> {
    fetched.push(path);
    return serveApi(new Request(new URL(path, "http://cuescope.test"), { headers: { authorization: `Bearer ${secret}` } }));
  }

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    secret = (await createKey(db, "loaders")).secret;
    const caller = await authenticate(db, `Bearer ${secret}`);
    context = { db, projectId: caller.projectId, viewer: { keyId: caller.key!.id } };
    const etf = generateEtfRun({ runId: ETF_RUN, seed: 7, turns: 60, anomalies: true }).events.map((e) => ({
      ...e,
      id: `${ETF_RUN}:${e.id}`,
    }));
    await ingestBatch(db, caller.projectId, [...etf, ...smallRun("loaders-small", 4), ...smallRun("..", 3)]);
    await settleRebuilds(db);
    await createComment(db, caller, ETF_RUN, { body: "a **note** on the run", turn: null });
    await createComment(db, caller, ETF_RUN, { body: "on turn 12", turn: 12 });
    await storeOtlpRecords(db, caller.projectId, [
      {
        kind: "model_request",
        runId: ETF_RUN,
        key: "span:loaders:1",
        ts: "2026-11-29T10:00:05.000Z",
        turn: 2,
        data: { model: "m", inputTokens: 10 },
      },
      { kind: "log", runId: ETF_RUN, key: "log:loaders:1", ts: "2026-11-29T10:00:06.000Z", turn: null, data: { body: "note" } },
    ]);
    const copy = await createCopyVersion(db, caller, { name: "loaders copy", copy: {} });
    await createPolicyVersion(db, caller, { name: "loaders policy", policy: { review: { everyTurns: 5 } } });
    const { job, done } = await startReplay(db, caller, { copyVersionId: copy.id, filters: {}, maxRuns: 5 }, inlineReplays(db));
    await done;
    jobId = job.id;
    vi.stubGlobal("fetch", fetchThroughRoutes);
  }, 120_000);
  afterAll(async () => {
    vi.unstubAllGlobals();
    await db?.close();
  });

  /**
   * Runs a query on both sides: the browser's (its queryFn, through the route) and the page's (the
   * loader). Returns the parsed inputs the loader saw on each side and both sides' data.
   */
  async function bothSides<R, K extends QueryKey>(
    query: ServerQuery<R> & FetchQueryOptions<R, Error, R, K>,
    loader: Loader<AnyEndpoint, R>,
  ) {
    const load = vi.spyOn(loader, "load");
    try {
      const browserClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      const browser = await browserClient.fetchQuery(query);
      const page = await fetchQuery(makeQueryClient(), query, context);
      expect(load).toHaveBeenCalledTimes(2);
      const [viaRoute, viaPage] = load.mock.calls.map((call) => call[2]);
      return { viaRoute, viaPage, browser, page };
    } finally {
      load.mockRestore();
    }
  }

  it("the runs list: the page's filters, the schema's sort and limit, the same page of runs", async () => {
    const parsed = parseRunListUrl(new URLSearchParams("status=completed&agent=etf-agent"), Date.now());
    if (!parsed.ok) throw new Error("the URL should parse");
    fetched.length = 0;
    const { viaRoute, viaPage, browser, page } = await bothSides(runsListQuery(parsed.filters), runListLoader);
    expect(fetched).toEqual(["/api/v1/runs?agent=etf-agent&sort=-started&status=completed"]);
    expect(viaPage).toEqual(viaRoute);
    expect(viaPage).toEqual({ path: {}, query: { status: "completed", agent: "etf-agent", sort: "-started", limit: 50 } });
    expect(page).toEqual(browser);
    expect(page.runs.map((run) => run.runId).sort()).toEqual(["..", "loaders-small"]);
  });

  it("Reviewer candidates: the page asks for the browser's page size, not the schema's default", async () => {
    const parsed = parseReviewerUrl(new URLSearchParams(`run=${ETF_RUN}&violations=1`), Date.now());
    if (!parsed.ok) throw new Error("the URL should parse");
    fetched.length = 0;
    const { viaRoute, viaPage, browser, page } = await bothSides(reviewerCandidatesQuery(parsed.filters), reviewerCandidatesLoader);
    expect(fetched).toEqual([`/api/v1/reviewer/candidates?limit=${REVIEWER_PAGE_SIZE}&runId=${ETF_RUN}&violations=1`]);
    expect(viaPage).toEqual(viaRoute);
    expect(viaPage).toEqual({ path: {}, query: { runId: ETF_RUN, violations: true, limit: REVIEWER_PAGE_SIZE } });
    expect(page).toEqual(browser);
    expect(page.rows.length).toBeGreaterThan(0);
  });

  it("the Reviewer funnel: the same filters without the cursor", async () => {
    const parsed = parseReviewerUrl(new URLSearchParams(`run=${ETF_RUN}&cursor=c9`), Date.now());
    if (!parsed.ok) throw new Error("the URL should parse");
    const { viaRoute, viaPage, browser, page } = await bothSides(reviewerFunnelQuery(parsed.filters), reviewerFunnelLoader);
    expect(viaPage).toEqual(viaRoute);
    expect(viaPage).toMatchObject({ path: {}, query: { runId: ETF_RUN } });
    expect(viaPage).not.toHaveProperty(["query", "cursor"]);
    expect(page).toEqual(browser);
    expect(page.candidates.total).toBeGreaterThan(0);
  });

  it.each([
    ["the facets", () => bothSides(runFacetsQuery(), runFacetsLoader)],
    ["the trends of a time zone", () => bothSides(trendsQuery({ tz: "Asia/Kolkata", from: "2026-11-20", to: "2026-11-30" }), trendsLoader)],
    ["a run's summary", () => bothSides(runSummaryQuery(ETF_RUN), runSummaryLoader)],
    ["the summary of the run `..` (its path is `~?runId=..`)", () => bothSides(runSummaryQuery(".."), runSummaryLoader)],
    ["a turn's detail", () => bothSides(turnDetailQuery(ETF_RUN, 12), turnDetailLoader)],
    ["a run's whole timeline", () => bothSides(runTimelineQuery(ETF_RUN), runTimelineLoader)],
    ["a run's follow-up and fatigue", () => bothSides(runEffectivenessQuery(ETF_RUN), runEffectivenessLoader)],
    ["a run's OpenTelemetry records", () => bothSides(runOtlpRecordsQuery(ETF_RUN), runOtlpRecordsLoader)],
    ["a run's OpenTelemetry records of one kind", () => bothSides(runOtlpRecordsQuery(ETF_RUN, { kind: "log" }), runOtlpRecordsLoader)],
    ["a window of the timeline", () => bothSides(runTimelineQuery(ETF_RUN, { from: 10, to: 30 }), runTimelineLoader)],
    ["a search inside a run", () => bothSides(runSearchQuery(ETF_RUN, "requests left", null), runSearchLoader)],
    ["a search of one kind inside a run", () => bothSides(runSearchQuery(ETF_RUN, "tool", "action"), runSearchLoader)],
    ["the copy versions", () => bothSides(copyVersionsQuery(), copyVersionsLoader)],
    ["the policy versions", () => bothSides(policyVersionsQuery(), policyVersionsLoader)],
    ["a replay job", () => bothSides(replayJobQuery(jobId), replayJobLoader)],
    ["a replay's turn", () => bothSides(replayTurnQuery(jobId, ETF_RUN, 12), replayTurnLoader)],
    ["a run against its what-if", () => bothSides(replayCompareQuery(jobId, ETF_RUN), replayCompareLoader)],
    [
      "a run against its what-if, stepped",
      () => bothSides(replayCompareQuery(jobId, ETF_RUN, { turn: 12, direction: "previous" }), replayCompareLoader),
    ],
    ["a run's what-if timeline", () => bothSides(replayWhatIfRunQuery(jobId, ETF_RUN), replayWhatIfRunLoader)],
    ["the recent replays", () => bothSides(replayListQuery(), replayListLoader)],
    ["the runs a replay would take", () => bothSides(replayMatchingQuery({ status: "completed" }, 3), replayMatchingLoader)],
    ["a run's notes (its own comments marked mine)", () => bothSides(commentsQuery(ETF_RUN, "run"), commentsLoader)],
    ["a turn's comments", () => bothSides(commentsQuery(ETF_RUN, 12), commentsLoader)],
    ["the turns with comments", () => bothSides(commentedTurnsQuery(ETF_RUN), commentedTurnsLoader)],
  ])("%s: the same input and the same data on both sides", async (_, run) => {
    const { viaRoute, viaPage, browser, page } = await run();
    expect(viaPage).toEqual(viaRoute);
    expect(page).toEqual(browser);
  });

  it("the comments: the page's prefetch marks the session key's own, as the API does for that key", async () => {
    const { viaPage, page } = await bothSides(commentsQuery(ETF_RUN, 12), commentsLoader);
    expect(viaPage).toEqual({ path: { runId: ETF_RUN }, query: { turn: 12, limit: 50 } });
    expect(page.comments.map((c) => [c.body, c.mine])).toEqual([["on turn 12", true]]);
    const turns = await bothSides(commentedTurnsQuery(ETF_RUN), commentedTurnsLoader);
    expect(turns.page).toEqual({ turns: [{ turn: 12, count: 1 }], truncated: false });
  });

  it("a timeline window reaches the loader as numbers, from the URL's text and from the page alike", async () => {
    const { viaPage } = await bothSides(runTimelineQuery(ETF_RUN, { from: 10, to: 30 }), runTimelineLoader);
    expect(viaPage).toEqual({ path: { runId: ETF_RUN }, query: { from: 10, to: 30 } });
  });
});
