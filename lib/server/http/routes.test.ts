import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { onRebuildWanted } from "@/lib/server/jobs/wanted";
import {
  MAX_BATCH_BYTES,
  MAX_BATCH_EVENTS,
  ZEventsResponse,
  ZIngestResponse,
  ZRunFacets,
  ZRunListResponse,
  ZRunSummary,
  ZRunDecisions,
  ZRunTimeline,
  ZRunTriage,
  ZTurnDetail,
} from "@/lib/contracts";
import { authenticate, createKey, revokeKey } from "@/lib/server/auth/keys";
import { createSession } from "@/lib/server/auth/sessions";
import { useDatabase, type Database } from "@/lib/server/db";
import { endedEvent, smallRun, startedEvent } from "@/lib/server/testing/events";
import { testDatabases } from "@/lib/server/testing/databases";
import { ingestRoute, runDecisionsRoute, runEventsRoute } from "./routes";
import { routeOf } from "@/lib/server/http/api";
import { runsApi } from "@/lib/endpoints";
import { taskThreads } from "@/lib/server/background/tasks";

const listRunsRoute = routeOf(runsApi.list);
const runFacetsRoute = routeOf(runsApi.facets);
const runSummaryRoute = routeOf(runsApi.summary);
const runTimelineRoute = routeOf(runsApi.timeline);
const runTriageRoute = routeOf(runsApi.triage);
const turnDetailRoute = routeOf(runsApi.turn);

const BASE = "http://cuescope.test/api/v1";

function post(key: string | null, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${BASE}/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function get(key: string, path: string): Request {
  return new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

const params = (runId: string) => ({ params: Promise.resolve({ runId }) });

describe.each(testDatabases())("HTTP API on $name", (kind) => {
  let db: Database;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    keyA = (await createKey(db, "team-a")).secret;
    keyB = (await createKey(db, "team-b")).secret;
  }, 60_000);
  afterAll(async () => db?.close());

  describe("POST /ingest", () => {
    it("answers 207 with one result per event, in order", async () => {
      const events = smallRun("http-1", 3);
      const response = await ingestRoute(post(keyA, { batch: [...events, { id: "broken" }] }));
      expect(response.status).toBe(207);
      const body = ZIngestResponse.parse(await response.json());
      expect(body.results.map((r) => r.status)).toEqual([...events.map(() => "created"), "error"]);
      expect(body.summary).toEqual({ created: events.length, duplicate: 0, error: 1 });
    });

    it.each([
      ["no key", null, 401, /missing API key/],
      ["an unknown key", "cs_not-a-key", 401, /unknown API key/],
    ])("refuses %s with 401", async (_, key, status, message) => {
      const response = await ingestRoute(post(key, { batch: [] }));
      expect(response.status).toBe(status);
      expect((await response.json()).error.message).toMatch(message);
    });

    it("refuses a revoked key", async () => {
      const { secret, key } = await createKey(db, "team-a", "to revoke");
      await revokeKey(db, key.prefix);
      const response = await ingestRoute(post(secret, { batch: [] }));
      expect(response.status).toBe(401);
      expect((await response.json()).error.message).toMatch(/revoked/);
    });

    it.each([
      ["text that is not JSON", "{batch:", {}, 400, /not valid JSON/],
      ["a body that is not a batch", { events: [] }, {}, 400, /body\.batch/],
      ["a batch that is not an array", { batch: {} }, {}, 400, /expected an array of events/],
      ["another content type", "batch=1", { "content-type": "text/plain" }, 415, /application\/json/],
      ["too many events", { batch: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => ({})) }, {}, 413, /limit is 1000 per request/],
    ])("answers %s with a JSON error", async (_, body, headers, status, message) => {
      const response = await ingestRoute(post(keyA, body, headers));
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect((await response.json()).error.message).toMatch(message);
    });

    it("answers 413 naming the limit for a body over 5 MB, declared or streamed", async () => {
      const big = JSON.stringify({ batch: [{ pad: "x".repeat(MAX_BATCH_BYTES) }] });
      const declared = await ingestRoute(post(keyA, big));
      expect(declared.status).toBe(413);
      expect((await declared.json()).error.message).toMatch(/5242880 bytes \(5 MB\)/);
      const stream = new Blob([big]).stream();
      const streamed = await ingestRoute(
        new Request(`${BASE}/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${keyA}` },
          body: stream,
          duplex: "half",
        } as RequestInit),
      );
      expect(streamed.status).toBe(413);
    });
  });

  describe("read API", () => {
    beforeAll(async () => {
      for (const [i, runId] of ["list-1", "list-2", "list-3"].entries()) {
        const events = smallRun(runId, 5 + i * 5).map((e) =>
          e.type === "run.started" ? { ...e, ts: `2026-11-2${i + 1}T10:00:00.000Z` } : e,
        );
        if (runId === "list-3") events.pop(); // live: no run.ended
        await ingestRoute(post(keyA, { batch: events }));
      }
      await ingestRoute(post(keyB, { batch: [startedEvent("secret-of-b"), endedEvent("secret-of-b")] }));
      await settleRebuilds(db); // what the background queue does after ingest
    });

    it("lists a project's runs, newest first, with each meter in its own unit", async () => {
      const body = ZRunListResponse.parse(await (await listRunsRoute(get(keyA, "/runs?q=list"))).json());
      expect(body.runs.map((r) => r.runId)).toEqual(["list-3", "list-2", "list-1"]);
      const [live] = body.runs;
      expect(live).toMatchObject({ status: "live", turns: 15, requests: { used: 44, usable: 36, reserve: 4, limit: 40 }, time: null });
      expect(live.reminders.delivered).toBeGreaterThan(0);
    });

    it("filters by status and pages with a cursor", async () => {
      const completed = ZRunListResponse.parse(await (await listRunsRoute(get(keyA, "/runs?status=completed&q=list"))).json());
      expect(completed.runs.map((r) => r.runId)).toEqual(["list-2", "list-1"]);

      const seen: string[] = [];
      let cursor: string | null = "";
      while (cursor !== null) {
        const url: string = `/runs?q=list&sort=turns&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
        const page = ZRunListResponse.parse(await (await listRunsRoute(get(keyA, url))).json());
        seen.push(...page.runs.map((r) => r.runId));
        cursor = page.nextCursor;
      }
      expect(seen).toEqual(["list-1", "list-2", "list-3"]);
    });

    it("rejects a bad filter with the parameter named", async () => {
      const response = await listRunsRoute(get(keyA, "/runs?status=sleeping"));
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: "invalid", path: "status" });
      const cursor = await listRunsRoute(get(keyA, "/runs?cursor=bogus"));
      expect((await cursor.json()).error).toMatchObject({ path: "cursor" });
    });

    it("serves a run's summary, decisions and events", async () => {
      const summary = ZRunSummary.parse(await (await runSummaryRoute(get(keyA, "/runs/list-2"), params("list-2"))).json());
      expect(summary).toMatchObject({ runId: "list-2", status: "completed", rebuiltTurns: 10, skippedTurns: 0 });
      expect(summary.policy?.requests?.limit).toBe(40);
      expect(summary.lastMeters?.context?.requiredBytes).toBe(8500);

      const decisions = ZRunDecisions.parse(await (await runDecisionsRoute(get(keyA, "/runs/list-2/decisions"), params("list-2"))).json());
      expect(decisions.turns).toHaveLength(10);

      const first = ZEventsResponse.parse(await (await runEventsRoute(get(keyA, "/runs/list-2/events?limit=20"), params("list-2"))).json());
      expect(first.events).toHaveLength(20);
      expect(first.nextCursor).not.toBeNull();
      const rest = ZEventsResponse.parse(
        await (await runEventsRoute(get(keyA, `/runs/list-2/events?limit=100&cursor=${first.nextCursor}`), params("list-2"))).json(),
      );
      expect(first.events.length + rest.events.length).toBe(32);
      expect(rest.nextCursor).toBeNull();
      const turn3 = ZEventsResponse.parse(await (await runEventsRoute(get(keyA, "/runs/list-2/events?turn=3"), params("list-2"))).json());
      expect(turn3.events.map((e) => e.event.type)).toEqual(["meter.requests", "request.final", "request.submitted"]);
    });

    it("serves one turn for the inspector, with its neighbours, and accepts a session cookie", async () => {
      const caller = await authenticate(db, `Bearer ${keyA}`);
      const { token } = await createSession(db, caller);
      const cookie = new Request(`${BASE}/runs/list-2/turns/3`, {
        // A browser session counts only under a loopback or allowed Host (lib/server/auth/allowed-hosts.ts).
        headers: { host: "localhost:3000", cookie: `other=1; cuescope_session=${encodeURIComponent(token)}` },
      });
      const detail = ZTurnDetail.parse(
        await (await turnDetailRoute(cookie, { params: Promise.resolve({ runId: "list-2", turn: "3" }) })).json(),
      );
      expect(detail).toMatchObject({ runId: "list-2", turn: 3, exists: true, previousTurn: 2, nextTurn: 4 });
      expect(detail.decision?.meters.requests?.used).toBe(11);
      expect(detail.events.map((e) => e.type)).toEqual(["meter.requests", "request.final", "request.submitted"]);

      const last = ZTurnDetail.parse(
        await (
          await turnDetailRoute(get(keyA, "/runs/list-2/turns/9"), { params: Promise.resolve({ runId: "list-2", turn: "9" }) })
        ).json(),
      );
      expect(last).toMatchObject({ previousTurn: 8, nextTurn: null });
      const missing = ZTurnDetail.parse(
        await (
          await turnDetailRoute(get(keyA, "/runs/list-2/turns/50"), { params: Promise.resolve({ runId: "list-2", turn: "50" }) })
        ).json(),
      );
      expect(missing).toMatchObject({ exists: false, decision: null, previousTurn: 9, nextTurn: null });
      const bad = await turnDetailRoute(get(keyA, "/runs/list-2/turns/x"), { params: Promise.resolve({ runId: "list-2", turn: "x" }) });
      expect(bad.status).toBe(400);
    });

    it("serves the run page's timeline, each meter in its own unit, for a window of turns", async () => {
      const whole = ZRunTimeline.parse(await (await runTimelineRoute(get(keyA, "/runs/list-2/timeline"), params("list-2"))).json());
      expect(whole.requests?.unit).toBe("requests");
      expect(whole.context?.unit).toBe("bytes");
      expect(whole.time).toBeNull(); // no time section in the policy
      expect(whole.requests?.points.at(-1)).toMatchObject({ turn: 9, value: 29 });
      const window = ZRunTimeline.parse(
        await (await runTimelineRoute(get(keyA, "/runs/list-2/timeline?from=2&to=4"), params("list-2"))).json(),
      );
      expect(window.turnRange).toEqual([2, 4]);
      const bad = await runTimelineRoute(get(keyA, "/runs/list-2/timeline?maxPoints=1"), params("list-2"));
      expect(bad.status).toBe(400);
    });

    it("counts each run's findings by code, summing to its findings", async () => {
      const body = ZRunListResponse.parse(await (await listRunsRoute(get(keyA, "/runs?q=list"))).json());
      for (const run of body.runs) {
        expect(Object.values(run.findingsByCode).reduce((sum, n) => sum + n, 0)).toBe(run.findings);
      }
    });

    it("serves the list's facets: the project's agents, models and statuses", async () => {
      const keyC = (await createKey(db, "team-facets")).secret;
      const empty = ZRunFacets.parse(await (await runFacetsRoute(get(keyC, "/facets"))).json());
      expect(empty).toEqual({ agents: [], models: [], statuses: [] });

      const started = (runId: string, agent: string, model: string) => startedEvent(runId, `${runId}-start`, { agent, model });
      await ingestRoute(
        post(keyC, {
          batch: [
            started("f-1", "zeta-agent", "m-small"),
            endedEvent("f-1", "failed"),
            started("f-2", "alpha-agent", "m-large"),
            started("f-3", "alpha-agent", "m-small"),
            endedEvent("f-3"),
            // run.started has not arrived: no agent or model yet.
            { id: "f-4-x", runId: "f-4", type: "meter.requests", ts: "2026-11-29T10:00:01.000Z", turn: 0, body: { used: 1 } },
          ],
        }),
      );
      const facets = ZRunFacets.parse(await (await runFacetsRoute(get(keyC, "/facets"))).json());
      expect(facets).toEqual({
        agents: ["alpha-agent", "zeta-agent"],
        models: ["m-large", "m-small"],
        statuses: ["live", "completed", "failed"],
      });

      const ofB = ZRunFacets.parse(await (await runFacetsRoute(get(keyB, "/facets"))).json());
      expect(ofB).toEqual({ agents: ["etf-agent"], models: ["m-large"], statuses: ["completed"] });
      expect((await runFacetsRoute(new Request(`${BASE}/facets`))).status).toBe(401);
    });

    it("keeps projects apart: a key sees only its own runs", async () => {
      const listB = ZRunListResponse.parse(await (await listRunsRoute(get(keyB, "/runs"))).json());
      expect(listB.runs.map((r) => r.runId)).toEqual(["secret-of-b"]);
      const peek = await runSummaryRoute(get(keyA, "/runs/secret-of-b"), params("secret-of-b"));
      expect(peek.status).toBe(404);
      const peekDecisions = await runDecisionsRoute(get(keyB, "/runs/list-1/decisions"), params("list-1"));
      expect(peekDecisions.status).toBe(404);
      const peekTriage = await runTriageRoute(get(keyB, "/runs/list-1/triage"), params("list-1"));
      expect(peekTriage.status).toBe(404);
    });

    it("serves the triage steps of a rebuilt run, and names a bad turn", async () => {
      const triage = ZRunTriage.parse(await (await runTriageRoute(get(keyA, "/runs/list-2/triage?turn=3"), params("list-2"))).json());
      expect(triage).toMatchObject({ runId: "list-2", turn: 3, ready: true });
      for (const step of Object.values(triage.steps)) {
        if (step.previous !== null) expect(step.previous).toBeLessThan(3);
        if (step.next !== null) expect(step.next).toBeGreaterThan(3);
      }
      const bad = await runTriageRoute(get(keyA, "/runs/list-2/triage?turn=-1"), params("list-2"));
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toContain("query.turn");
    });

    it("asks for the rebuild of a stored summary that no longer parses, and says so in the log", async () => {
      await ingestRoute(post(keyA, { batch: smallRun("bad-cache", 3) }));
      await settleRebuilds(db);
      const first = ZRunSummary.parse(await (await runSummaryRoute(get(keyA, "/runs/bad-cache"), params("bad-cache"))).json());
      expect(first).toMatchObject({ staleEvents: 0, rebuildPending: false, rebuildError: null });
      const run = await db.prisma.run.findFirstOrThrow({ where: { runId: "bad-cache" } });
      await db.prisma.runDecisionsCache.update({
        where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
        data: { summary: { rebuiltTurns: "three" } },
      });
      const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
      const wanted: string[] = [];
      onRebuildWanted((_projectId, runPks) => wanted.push(...runPks));
      try {
        const broken = ZRunSummary.parse(await (await runSummaryRoute(get(keyA, "/runs/bad-cache"), params("bad-cache"))).json());
        expect(broken).toMatchObject({ rebuildPending: true, rebuildError: null, rebuiltTurns: 0 });
        expect(wanted).toContain(run.id);
        expect(String(warned.mock.calls[0]?.[0])).toMatch(
          new RegExp(`stored run_decisions\\.summary of row "${run.id}" does not match its schema: rebuiltTurns`),
        );
      } finally {
        onRebuildWanted(undefined);
        warned.mockRestore();
      }
      await rebuildRun(db, taskThreads(0), run.projectId, run.id); // the rebuild the read asked for
      const again = ZRunSummary.parse(await (await runSummaryRoute(get(keyA, "/runs/bad-cache"), params("bad-cache"))).json());
      expect(again).toEqual(first);
      const stored = await db.prisma.runDecisionsCache.findUniqueOrThrow({
        where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
      });
      expect((stored.summary as { rebuiltTurns: unknown }).rebuiltTurns).toBe(first.rebuiltTurns);
    });

    it("says why a run without run.started has no decisions yet", async () => {
      await ingestRoute(post(keyA, { batch: smallRun("headless", 2).filter((e) => e.type !== "run.started") }));
      await settleRebuilds(db);
      const summary = ZRunSummary.parse(await (await runSummaryRoute(get(keyA, "/runs/headless"), params("headless"))).json());
      expect(summary.rebuildError).toMatch(/run.started/);
      const decisions = await runDecisionsRoute(get(keyA, "/runs/headless/decisions"), params("headless"));
      expect(decisions.status).toBe(409);
    });
  });
});
