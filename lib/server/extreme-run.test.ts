import { QueryClient, type FetchQueryOptions, type QueryKey } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_INTEGER, MAX_TURN, ZEvent, ZRunDecisions, type TReplayFilters } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { commentedTurnsQuery, commentsQuery } from "@/lib/queries/comments";
import { makeQueryClient } from "@/lib/queries/query-client";
import { replayJobQuery, replayMatchingQuery, replayTurnQuery } from "@/lib/queries/replay";
import { reviewerCandidatesQuery, reviewerFunnelQuery } from "@/lib/queries/reviewer";
import { runFacetsQuery, runsListQuery, runSummaryQuery, runTimelineQuery, runTriageQuery, turnDetailQuery } from "@/lib/queries/runs";
import { trendsQuery } from "@/lib/queries/trends";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import { createComment } from "@/lib/server/comments/comments";
import { useDatabase, type Database } from "@/lib/server/db";

import { reviewerExportRoute } from "@/lib/server/http/reviewer-routes";
import { exportRunsRoute, ingestRoute, runDecisionsRoute, runEventsRoute } from "@/lib/server/http/routes";

import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getReplayJob, startReplay } from "@/lib/server/replay/replay-jobs";
import { testDatabases } from "@/lib/server/testing/databases";
import { inlineReplays } from "@/lib/server/testing/jobs";
import { fetchQuery, type ServerQuery } from "./loaders/prefetch";
import { serveApi } from "@/lib/server/http/api";

/**
 * The telemetry contract's extreme values (docs/contract/telemetry.md#storage-limits) through every
 * path a run takes: a run whose turns are 0 and 2,147,483,647 (the largest turn), with every count,
 * byte size and millisecond figure at 2^53 − 1 and ids of 128 characters, is ingested over the API,
 * rebuilt, replayed (the matching count and a replay of the run), summed in the trends, exported
 * (runs CSV and JSON, its decisions, the Reviewer rows) and read by the loaders the pages use, each
 * through the browser's query (its answer parsed by the contract) and the page's prefetch alike.
 * Its turn count is 2,147,483,648: one more than a 32-bit integer holds.
 */

const RUN_ID = `extreme-${"r".repeat(120)}`;
const TURNS = MAX_TURN + 1;
const BASE = "http://cuescope.test";
const DAY = "2026-12-21";
const at = (second: number, ms = 0) => new Date(Date.UTC(2026, 11, 21, 10, 0, second, ms)).toISOString();

/** The run: turn 0 and turn MAX_TURN, each a whole turn, every integer the contract allows at its largest. */
function extremeRun(): Record<string, unknown>[] {
  const id = (n: number) => `${RUN_ID.slice(0, 120)}-${String(n).padStart(7, "0")}`; // 128 characters
  const turn = (t: number, second: number, n: number) => [
    { id: id(n), runId: RUN_ID, type: "meter.requests", ts: at(second), turn: t, body: { used: t === 0 ? 0 : MAX_INTEGER } },
    { id: id(n + 1), runId: RUN_ID, type: "meter.time", ts: at(second, 1), turn: t, body: { elapsedMs: MAX_INTEGER } },
    {
      id: id(n + 2),
      runId: RUN_ID,
      type: "block.edited",
      ts: at(second, 2),
      turn: t,
      body: { blockId: "b", used: MAX_INTEGER, limit: MAX_INTEGER },
    },
    {
      id: id(n + 3),
      runId: RUN_ID,
      type: "context.compaction",
      ts: at(second, 3),
      turn: t,
      body: { originalBytes: MAX_INTEGER, candidateBytes: MAX_INTEGER, outcome: "adopted" },
    },
    {
      id: id(n + 4),
      runId: RUN_ID,
      type: "reviewer.candidate",
      ts: at(second, 4),
      turn: t,
      body: { candidateId: `c${t}`, checkpoint: MAX_INTEGER },
    },
    {
      id: id(n + 5),
      runId: RUN_ID,
      type: "request.final",
      ts: at(second, 5),
      turn: t,
      body: { requiredBytes: MAX_INTEGER, providerTokens: MAX_INTEGER },
    },
    {
      id: id(n + 6),
      runId: RUN_ID,
      type: "request.submitted",
      ts: at(second, 6),
      turn: t,
      body: { outcome: t === 0 ? "ok" : "uncertain", reminders: [{ key: "requests", stage: MAX_INTEGER }] },
    },
  ];
  return [
    {
      id: id(0),
      runId: RUN_ID,
      type: "run.started",
      ts: at(0),
      body: {
        task: "the contract's extreme values",
        agent: "extreme-agent",
        model: "m-extreme",
        policy: {
          requests: { limit: MAX_INTEGER, deliveryReserve: MAX_INTEGER, stages: [0.5, 1] },
          time: { limitMs: MAX_INTEGER, stages: [0.5, 1] },
          context: { capacityBytes: MAX_INTEGER, stages: [0.5, 1] },
          edits: { perBlockLimit: MAX_INTEGER, stages: [0.5, 1] },
          review: { everyTurns: MAX_INTEGER, afterMs: MAX_INTEGER },
          reviewer: { autoReviewAllowed: true, minRequestsLeft: MAX_INTEGER },
        },
      },
    },
    ...turn(0, 1, 10),
    ...turn(MAX_TURN, 2, 20),
    { id: id(99), runId: RUN_ID, type: "run.ended", ts: at(3), body: { status: "completed" } },
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route takes its own params
type RouteHandler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

describe.each(testDatabases())("a run at the contract's extreme values, end to end, on $name", (kind) => {
  let db: Database;
  let secret: string;
  let caller: Caller;
  let replayId: string;

  async function fetchThroughRoutes(path: string): Promise<Response> {
    return serveApi(new Request(new URL(path, BASE), { headers: { authorization: `Bearer ${secret}` } }));
  }

  const get = (handler: RouteHandler, path: string, params: Record<string, string> = {}) =>
    handler(new Request(new URL(path, BASE), { headers: { authorization: `Bearer ${secret}` } }), { params: Promise.resolve(params) });

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    secret = (await createKey(db, "extremes")).secret;
    caller = await authenticate(db, `Bearer ${secret}`);
    vi.stubGlobal("fetch", fetchThroughRoutes);
  }, 180_000);
  afterAll(async () => {
    vi.unstubAllGlobals();
    await db?.close();
  });

  /** The page's data: the browser's query (through the route, its answer parsed by the contract) and the page's prefetch, which must agree. */
  async function pageData<R, K extends QueryKey>(query: ServerQuery<R> & FetchQueryOptions<R, Error, R, K>) {
    const browser = await new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery(query);
    const page = await fetchQuery(makeQueryClient(), query, { db, projectId: caller.projectId, viewer: { keyId: caller.key!.id } });
    expect(page).toEqual(browser);
    return page;
  }

  async function ingest(events: Record<string, unknown>[]) {
    const response = await ingestRoute(
      new Request(`${BASE}/api/v1/ingest`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ batch: events }),
      }),
      { params: Promise.resolve({}) },
    );
    const answer = await response.json();
    expect(answer.results.filter((r: { status: string }) => r.status !== "created")).toEqual([]);
    expect(response.status).toBe(207);
    expect(answer.summary).toEqual({ created: events.length, duplicate: 0, error: 0 });
  }

  it("is ingested over the API and rebuilt live: the last turn's second half resumes the stored rebuild", async () => {
    const events = extremeRun();
    const split = events.length - 4; // the last turn's final request and submission, and run.ended, come later
    await ingest(events.slice(0, split));
    await settleRebuilds(db);
    await ingest(events.slice(split));
    await settleRebuilds(db);
    const run = await db.prisma.run.findFirstOrThrow({ where: { projectId: caller.projectId, runId: RUN_ID } });
    expect(run.maxTurn).toBe(MAX_TURN);
    const stored = await db.prisma.runDecisionsCache.findFirstOrThrow({ where: { projectId: caller.projectId, runPk: run.id } });
    expect([stored.error, stored.eventCount]).toEqual([null, events.length]);
    // The stored rebuild (resumed, in chunks) is the core's rebuild of every event.
    const decisions = ZRunDecisions.parse(
      await (await get(runDecisionsRoute, `/api/v1/runs/${RUN_ID}/decisions`, { runId: RUN_ID })).json(),
    );
    expect(decisions).toEqual(rebuild(events.map((e) => ZEvent.parse(e))));
  });

  it("is rebuilt: its decisions hold turns 0 and 2,147,483,647, served whole by the decisions download", async () => {
    const response = await get(runDecisionsRoute, `/api/v1/runs/${RUN_ID}/decisions`, { runId: RUN_ID });
    expect(response.status).toBe(200);
    const decisions = ZRunDecisions.parse(await response.json());
    expect(decisions.turns.map((t) => t.turn)).toEqual([0, MAX_TURN]);
    const events = await get(runEventsRoute, `/api/v1/runs/${RUN_ID}/events`, { runId: RUN_ID });
    expect(events.status).toBe(200);
    const turns = (await events.json()).events.map((e: { event: { turn?: number } }) => e.event.turn ?? null);
    expect(new Set(turns)).toEqual(new Set([null, 0, MAX_TURN]));
  });

  it("is listed, sorted by turns and summed up with its turn count of 2,147,483,648", async () => {
    const list = await pageData(runsListQuery({ sort: "-turns" }));
    expect(list.runs.map((r) => [r.runId, r.turns])).toEqual([[RUN_ID, TURNS]]);
    const summary = await pageData(runSummaryQuery(RUN_ID));
    expect(summary.turns).toBe(TURNS);
    expect((await pageData(runFacetsQuery())).agents).toEqual(["extreme-agent"]);
  });

  it("reads each of its turns, the whole timeline, a window at the end, and the triage bar", async () => {
    for (const turn of [0, MAX_TURN]) expect((await pageData(turnDetailQuery(RUN_ID, turn))).decision?.turn).toBe(turn);
    const whole = await pageData(runTimelineQuery(RUN_ID));
    expect(whole.turnRange).toEqual([0, MAX_TURN]);
    const end = await pageData(runTimelineQuery(RUN_ID, { from: MAX_TURN - 10, to: MAX_TURN }));
    expect(end.turnRange).toEqual([MAX_TURN, MAX_TURN]);
    expect(end.requests?.points.map((p) => p.turn)).toEqual([MAX_TURN]);
    // Every reminder of both turns is dropped: the requests already need all of a context of 2^53 − 1 bytes.
    const triage = await pageData(runTriageQuery(RUN_ID, MAX_TURN));
    expect(triage.steps.drop).toEqual({ count: 2, previous: 0, next: null });
    const fromStart = await pageData(runTriageQuery(RUN_ID, 0));
    expect(fromStart.steps.drop).toEqual({ count: 2, previous: null, next: MAX_TURN });
  });

  it("takes comments on its last turn", async () => {
    await createComment(db, caller, RUN_ID, { body: "the very last turn", turn: MAX_TURN });
    const comments = await pageData(commentsQuery(RUN_ID, MAX_TURN));
    expect(comments.comments.map((c) => c.body)).toEqual(["the very last turn"]);
    expect((await pageData(commentedTurnsQuery(RUN_ID))).turns).toEqual([{ turn: MAX_TURN, count: 1 }]);
  });

  it("is counted by the replay's matching runs and replayed: 2,147,483,648 turns", async () => {
    const filters: TReplayFilters = { agent: "extreme-agent" };
    const matching = await pageData(replayMatchingQuery(filters, 10));
    expect(matching).toMatchObject({ runs: 1, turns: TURNS, more: false });
    const { job, done } = await startReplay(db, caller, { filters, maxRuns: 10, policyVersionId: undefined }, inlineReplays(db));
    await done;
    replayId = job.id;
    const finished = await getReplayJob(db, caller.projectId, job.id);
    expect(finished.status).toBe("done");
    expect(finished.progress).toMatchObject({ totalRuns: 1, doneRuns: 1, totalTurns: TURNS, doneTurns: TURNS });
    expect((await pageData(replayJobQuery(replayId))).progress.totalTurns).toBe(TURNS);
    const turn = await pageData(replayTurnQuery(replayId, RUN_ID, MAX_TURN));
    expect(turn.turn).toBe(MAX_TURN);
  });

  it("is summed in the trends of its day: two turns", async () => {
    for (const tz of ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const trends = await pageData(trendsQuery({ tz, from: "2026-12-20", to: "2026-12-22" }));
      expect(trends.days.reduce((sum, d) => sum + d.turns, 0)).toBe(2);
    }
    const utc = await pageData(trendsQuery({ tz: "UTC", from: DAY, to: DAY }));
    expect(utc.days.map((d) => [d.day, d.turns])).toEqual([[DAY, 2]]);
  });

  it("is exported: the runs as CSV and JSON with its turn count, and its Reviewer rows", async () => {
    const csv = await get(exportRunsRoute, "/api/v1/runs/export?format=csv");
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split("\n");
    const header = lines[0].split(",");
    const row = lines[1].split(",");
    expect(row[header.indexOf("turns (turns)")]).toBe(String(TURNS));
    const json = await get(exportRunsRoute, "/api/v1/runs/export?format=json");
    expect(json.status).toBe(200);
    expect((await json.json()).map((r: { runId: string; turns: number }) => [r.runId, r.turns])).toEqual([[RUN_ID, TURNS]]);
    const reviewer = await get(reviewerExportRoute, "/api/v1/reviewer/export?format=json");
    expect(reviewer.status).toBe(200);
    // The two recorded candidates, one on each turn (besides the review checkpoint the rebuild raises at turn 0).
    const recorded = (await reviewer.json()).filter((r: { source: string }) => r.source === "recorded");
    expect(recorded.map((r: { candidateId: string; turn: number }) => [r.candidateId, r.turn])).toEqual([
      ["c0", 0],
      [`c${MAX_TURN}`, MAX_TURN],
    ]);
    const candidates = await pageData(reviewerCandidatesQuery({ runId: RUN_ID }));
    expect(candidates.rows.filter((r) => r.source === "recorded").map((r) => r.turn)).toEqual([0, MAX_TURN]);
    const funnel = await pageData(reviewerFunnelQuery({ runId: RUN_ID }));
    expect(funnel.candidates.total).toBe(candidates.rows.length);
  });

  it("a run at the first and last instants stored (0001-01-01T00:00:00Z, 9999-12-31T23:59:59.999Z) and a leap second reads back and is exported", async () => {
    const runId = "extreme-instants";
    const first = "0001-01-01T00:00:00Z";
    const leap = "2016-12-31T23:59:60.5Z";
    const last = "9999-12-31T23:59:59.999Z";
    const turn = (t: number, ts: string) => [
      { id: `${runId}-${t}-1`, runId, type: "meter.requests", ts, turn: t, body: { used: 1 } },
      { id: `${runId}-${t}-2`, runId, type: "request.final", ts, turn: t, body: { requiredBytes: 100 } },
      { id: `${runId}-${t}-3`, runId, type: "request.submitted", ts, turn: t, body: { outcome: "ok" } },
    ];
    const events = [
      { id: `${runId}-0`, runId, type: "run.started", ts: first, body: { task: "instants", agent: "instant-agent", policy: {} } },
      ...turn(0, first),
      ...turn(1, leap),
      ...turn(2, last),
      { id: `${runId}-9`, runId, type: "run.ended", ts: last, body: { status: "completed" } },
    ];
    await ingest(events);
    await settleRebuilds(db);
    const decisions = ZRunDecisions.parse(await (await get(runDecisionsRoute, `/api/v1/runs/${runId}/decisions`, { runId })).json());
    expect(decisions).toEqual(rebuild(events.map((e) => ZEvent.parse(e))));
    expect(decisions.turns.map((t) => t.turn)).toEqual([0, 1, 2]);
    const summary = await pageData(runSummaryQuery(runId));
    expect([summary.startedAt, summary.endedAt, summary.turns]).toEqual(["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", 3]);
    // The leap second's instant is the last millisecond of its minute (contract §4), its ts kept as sent.
    const leapTurn = await pageData(turnDetailQuery(runId, 1));
    expect(leapTurn.events.map((e) => e.ts)).toEqual([leap, leap, leap]);
    expect((await pageData(runTimelineQuery(runId))).turnRange).toEqual([0, 2]);
    const json = await get(exportRunsRoute, "/api/v1/runs/export?format=json&agent=instant-agent");
    expect((await json.json()).map((r: { startedAt: string; endedAt: string }) => [r.startedAt, r.endedAt])).toEqual([
      ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"],
    ]);
    const trends = await pageData(trendsQuery({ tz: "UTC", from: "0001-01-01", to: "0001-01-01", agent: "instant-agent" }));
    expect(trends.days.map((d) => [d.day, d.turns])).toEqual([["0001-01-01", 1]]);
  });
});
