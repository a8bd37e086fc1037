import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAlertList, ZAlertRule, ZAlertRules, type TAlertRule } from "@/lib/contracts";
import { PROJECTION_TURNS } from "@/lib/derived/projection/projection";
import { alertsApi, type AnyEndpoint } from "@/lib/endpoints";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { endedEvent, startedEvent, turnEvents, type Raw } from "@/lib/server/testing/events";
import { evaluateAlerts, type DeliverySender } from "./evaluate";

/**
 * "Runs out within N turns" rules (docs/alerts.md) on both databases, over runs ingested and rebuilt
 * for real. Each run spends its requests at an even pace, so the turns it has left are worked out here
 * from the events alone — the usable requests (limit 40 − reserve 4 = 36, startedEvent's policy) less
 * those used at its last turn, at one request a turn — and never read back from the projection.
 */

const ORIGIN = "http://127.0.0.1:3000";
/** startedEvent's requests policy: limit 40, delivery reserve 4. */
const USABLE = 40 - 4;
/** The time policy of the timed run: 10 minutes, 30 s a turn. */
const TIME_LIMIT_MS = 600_000;
const MS_PER_TURN = 30_000;

/** A live run that uses one request a turn: `turns` turns, the last (turns − 1) having used `turns`. */
function steadyRun(runId: string, turns: number, agent: string, perTurn = 1): Raw[] {
  const events = [startedEvent(runId, `${runId}-start`, { agent })];
  for (let t = 0; t < turns; t++) events.push(...turnEvents(runId, t, perTurn === 0 ? 5 : 1 + t * perTurn, 3_000));
  return events;
}

/** A live run with a time meter only: 30 s of the run clock a turn against 10 minutes. */
function timedRun(runId: string, turns: number): Raw[] {
  const events = [
    startedEvent(runId, `${runId}-start`, { agent: "clock-agent", policy: { time: { limitMs: TIME_LIMIT_MS, stages: [0.5, 0.9] } } }),
  ];
  for (let t = 0; t < turns; t++) {
    const ts = new Date(Date.UTC(2026, 10, 29, 10, 0, t)).toISOString();
    events.push(
      { id: `${runId}-${t}-time`, runId, type: "meter.time", ts, turn: t, body: { elapsedMs: t * MS_PER_TURN } },
      { id: `${runId}-${t}-final`, runId, type: "request.final", ts, turn: t, body: { requiredBytes: 2_000 } },
      { id: `${runId}-${t}-ok`, runId, type: "request.submitted", ts, turn: t, body: { outcome: "ok" } },
    );
  }
  return events;
}

// The runs, and what each has left, from the events above.
const NEAR_TURNS = 20; // used 20 of 36 at turn 19
const NEAR_LEFT = USABLE - NEAR_TURNS; // 16 turns
const FAR_TURNS = 5; // used 5 of 36 at turn 4
const FAR_LEFT = USABLE - FAR_TURNS; // 31 turns
const SPENT_TURNS = 38; // used 38 of 36 at turn 37: past its limit
const TIMED_TURNS = 10; // 4.5 of 10 minutes at turn 9
const TIMED_LEFT = (TIME_LIMIT_MS - (TIMED_TURNS - 1) * MS_PER_TURN) / MS_PER_TURN; // 11 turns

describe.each(testDatabases())("runs-out alert rules on $name", (kind) => {
  let db: Database;
  let adminKey: string;
  let projectId: string;
  const sent: { projectId: string; deliveryId: string }[] = [];
  const send: DeliverySender = async (_tx, jobs) => void sent.push(...jobs);
  const now = new Date("2026-11-29T12:00:00.000Z");

  async function call(endpoint: AnyEndpoint, options: { body?: unknown; path?: Record<string, string>; query?: string } = {}) {
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.path?.[name] ?? ""));
    const response = await routeOf(endpoint)(
      new Request(`${ORIGIN}${path}${options.query ?? ""}`, {
        method: endpoint.method,
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      }),
      { params: Promise.resolve(options.path ?? {}) },
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
  const made = async (body: unknown) => {
    const answer = await call(alertsApi.create, { body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return ZAlertRule.parse(answer.body);
  };
  const alertsOf = async (rule: TAlertRule) =>
    ZAlertList.parse((await call(alertsApi.alerts, { query: `?ruleId=${rule.id}` })).body).alerts;
  const ruleNow = async (rule: TAlertRule) => ZAlertRules.parse((await call(alertsApi.rules)).body).rules.find((r) => r.id === rule.id)!;
  const ingest = async (events: readonly Raw[]) => {
    expect((await ingestBatch(db, projectId, events)).summary.error).toBe(0);
    await settleRebuilds(db);
  };
  const limitIn = async (runId: string) =>
    db.prisma.run.findUniqueOrThrow({
      where: { projectId_runId: { projectId, runId } },
      select: { requestsLimitIn: true, timeLimitIn: true },
    });

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    adminKey = (await createKey(db, "runs-out", "lead key")).secret;
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "runs-out" } })).id;
    await ingest([
      ...steadyRun("near", NEAR_TURNS, "etf-agent"),
      ...steadyRun("far", FAR_TURNS, "other-agent"),
      ...steadyRun("flat", 12, "etf-agent", 0), // the same 5 used on every turn: never at this pace
      ...steadyRun("spent", SPENT_TURNS, "spent-agent"),
      ...timedRun("timed", TIMED_TURNS),
    ]);
  }, 120_000);
  afterAll(async () => db?.close());

  it("keeps each run's turns to its requests and time limits on its row", async () => {
    expect(await limitIn("near")).toEqual({ requestsLimitIn: NEAR_LEFT, timeLimitIn: null });
    expect(await limitIn("far")).toEqual({ requestsLimitIn: FAR_LEFT, timeLimitIn: null });
    expect(await limitIn("flat")).toEqual({ requestsLimitIn: null, timeLimitIn: null });
    expect(await limitIn("spent")).toEqual({ requestsLimitIn: 0, timeLimitIn: null });
    expect(await limitIn("timed")).toEqual({ requestsLimitIn: null, timeLimitIn: TIMED_LEFT });
  });

  it("fires when a live run reaches the limit within the turns, soonest first, by agent; not one turn short; and clears when the run ends", async () => {
    const within = await made({
      name: "Near",
      condition: { kind: "runs_out", meter: "requests", withinTurns: NEAR_LEFT },
      scope: { agent: "etf-agent" },
      webhookUrl: "https://hooks.example.com/runs-out",
    });
    const short = await made({
      name: "Short",
      condition: { kind: "runs_out", meter: "requests", withinTurns: NEAR_LEFT - 1 },
      scope: { agent: "etf-agent" },
    });
    const everyAgent = await made({ name: "All", condition: { kind: "runs_out", meter: "requests", withinTurns: FAR_LEFT } });
    const other = await made({
      name: "Other",
      condition: { kind: "runs_out", meter: "requests", withinTurns: FAR_LEFT - 1 },
      scope: { agent: "other-agent" },
    });
    const clock = await made({ name: "Clock", condition: { kind: "runs_out", meter: "time", withinTurns: TIMED_LEFT } });
    const clockShort = await made({ name: "Clock short", condition: { kind: "runs_out", meter: "time", withinTurns: TIMED_LEFT - 1 } });
    expect(within.description).toBe(
      `a live run projected to run out of requests within ${NEAR_LEFT} turns at its current pace (agent etf-agent)`,
    );

    sent.length = 0;
    const report = await evaluateAlerts(db, send, now);
    expect(report.failed).toBe(0);

    // 16 turns: the near run, at an even pace (its interval is the one turn), and not the flat one.
    const [fired] = await alertsOf(within);
    expect(fired.value).toMatchObject({
      runs: 1,
      runIds: ["near"],
      soonestTurns: NEAR_LEFT,
      soonestTurnsLow: NEAR_LEFT,
      soonestTurnsHigh: NEAR_LEFT,
      holds: true,
    });
    expect(fired.summary).toBe(
      `1 live run projected to run out of requests within ${NEAR_LEFT} turns: near; soonest in ~${NEAR_LEFT} turns`,
    );
    expect(fired.runsHref).toBe("/runs?status=live&agent=etf-agent");
    // Its webhook says the condition and what was found.
    const [delivery] = await db.prisma.alertDelivery.findMany({ where: { projectId, alertId: fired.id } });
    const body = JSON.parse(delivery.body);
    expect(body.cuescope.alert.condition).toEqual({ kind: "runs_out", meter: "requests", withinTurns: NEAR_LEFT });
    expect(body.cuescope.alert.value).toMatchObject({ runs: 1, runIds: ["near"], soonestTurns: NEAR_LEFT });
    expect(body.text).toContain(fired.summary);
    expect(sent.map((j) => j.deliveryId)).toEqual([delivery.id]);

    // 15 turns: one short of it.
    expect(await alertsOf(short)).toEqual([]);
    expect((await ruleNow(short)).lastValue).toMatchObject({ runs: 0, holds: false, soonestTurns: null });
    // Every agent within 31 turns: the spent run (0 turns left) first, then near (16) and far (31).
    expect((await alertsOf(everyAgent))[0].value).toMatchObject({ runs: 3, runIds: ["spent", "near", "far"], soonestTurns: 0 });
    // The other agent's run is 31 turns away: a rule of 30 turns does not fire.
    expect(await alertsOf(other)).toEqual([]);
    // The time meter: 11 turns of the run clock left.
    expect((await alertsOf(clock))[0].value).toMatchObject({ runs: 1, runIds: ["timed"], soonestTurns: TIMED_LEFT });
    expect(await alertsOf(clockShort)).toEqual([]);

    // The near run ends: it no longer counts, and the rule clears at the next evaluation.
    await ingest([endedEvent("near")]);
    const later = new Date(now.getTime() + 60_000);
    await evaluateAlerts(db, send, later);
    const [cleared] = await alertsOf(within);
    expect(cleared.clearedAt).toBe(later.toISOString());
    expect(await ruleNow(within)).toMatchObject({ state: "ok", lastValue: { runs: 0, holds: false } });
    expect((await ruleNow(everyAgent)).lastValue).toMatchObject({ runs: 2, runIds: ["spent", "far"] });
    for (const rule of [within, short, everyAgent, other, clock, clockShort]) await call(alertsApi.delete, { path: { id: rule.id } });
  });

  it("follows a run's pace as it goes on: a run that slows down drops out", async () => {
    // far goes on using a request a turn for 10 more turns: 15 used at turn 14, 21 left.
    const more: Raw[] = [];
    for (let t = FAR_TURNS; t < FAR_TURNS + 10; t++) more.push(...turnEvents("far", t, 1 + t, 3_000));
    await ingest(more);
    expect(await limitIn("far")).toEqual({ requestsLimitIn: USABLE - (FAR_TURNS + 10), timeLimitIn: null });
    const rule = await made({
      name: "Far",
      condition: { kind: "runs_out", meter: "requests", withinTurns: USABLE - (FAR_TURNS + 10) },
      scope: { agent: "other-agent" },
    });
    await evaluateAlerts(db, send, now);
    expect((await alertsOf(rule))[0].value).toMatchObject({ runs: 1, runIds: ["far"] });

    // Then it stops spending for as many turns as the projection fits: its pace is 0, never at this pace.
    const flat: Raw[] = [];
    for (let t = FAR_TURNS + 10; t < FAR_TURNS + 10 + PROJECTION_TURNS; t++) flat.push(...turnEvents("far", t, FAR_TURNS + 10, 3_000));
    await ingest(flat);
    expect(await limitIn("far")).toEqual({ requestsLimitIn: null, timeLimitIn: null });
    await evaluateAlerts(db, send, new Date(now.getTime() + 60_000));
    expect((await alertsOf(rule))[0].clearedAt).not.toBeNull();
  });
});
