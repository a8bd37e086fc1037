import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZTrendsResponse, type TTrendsResponse } from "@/lib/contracts";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";

import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { authenticate } from "@/lib/server/auth/keys";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { startedEvent, turnEvents, type Raw } from "@/lib/server/testing/events";
import { testDatabases } from "@/lib/server/testing/databases";
import { routeOf } from "@/lib/server/http/api";
import { trendsApi } from "@/lib/endpoints";

const trendsRoute = routeOf(trendsApi.trends);

const BASE = "http://cuescope.test/api/v1";

/** A run whose turns happen at the given instants (each turn's events within its first second). */
function runAt(runId: string, instants: readonly string[], extra: Raw = {}): Raw[] {
  const events: Raw[] = [startedEvent(runId, `${runId}-start`, extra)];
  instants.forEach((at, turn) => {
    for (const event of turnEvents(runId, turn, 2 + turn * 10, 4000 + turn * 2500)) {
      events.push({ ...event, ts: new Date(Date.parse(at) + Number(String(event.id).slice(-1)) * 10).toISOString() });
    }
  });
  return events;
}

// 2026-03-28 in UTC; in Asia/Kolkata (+05:30) the last three are on the 29th; in Europe/Paris the
// last one is on the 29th, the day clocks go forward (23 hours: 2026-03-28T23:00Z to 2026-03-29T22:00Z).
const INSTANTS = ["2026-03-28T18:20:00Z", "2026-03-28T18:30:00Z", "2026-03-28T22:50:00Z", "2026-03-28T23:10:00Z"];

describe.each(testDatabases())("GET /api/v1/trends on $name", (kind) => {
  let db: Database;
  let keyA: string;
  let keyB: string;

  async function trends(key: string, query: string): Promise<{ status: number; body: unknown }> {
    const answer = await trendsRoute(new Request(`${BASE}/trends?${query}`, { headers: { authorization: `Bearer ${key}` } }));
    return { status: answer.status, body: await answer.json() };
  }
  async function ok(key: string, query: string): Promise<TTrendsResponse> {
    const { status, body } = await trends(key, query);
    expect(status, JSON.stringify(body)).toBe(200);
    return ZTrendsResponse.parse(body);
  }
  const turnsByDay = (answer: TTrendsResponse) => Object.fromEntries(answer.days.filter((d) => d.turns > 0).map((d) => [d.day, d.turns]));

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    keyA = (await createKey(db, "trends-a")).secret;
    keyB = (await createKey(db, "trends-b")).secret;
    const projectA = (await authenticate(db, `Bearer ${keyA}`)).projectId;
    const projectB = (await authenticate(db, `Bearer ${keyB}`)).projectId;
    await ingestBatch(db, projectA, runAt("trend-a", INSTANTS));
    await ingestBatch(
      db,
      projectB,
      runAt(
        "trend-b",
        Array.from({ length: 10 }, (_, t) => `2026-03-28T12:0${t}:00Z`),
      ),
    );
    await settleRebuilds(db);
  }, 60_000);
  afterAll(async () => db?.close());

  it("groups a run's turns by the days of the asked time zone, +05:30 and a daylight-saving change included", async () => {
    const window = "from=2026-03-27&to=2026-03-30";
    expect(turnsByDay(await ok(keyA, `tz=UTC&${window}`))).toEqual({ "2026-03-28": 4 });
    expect(turnsByDay(await ok(keyA, `tz=Asia/Kolkata&${window}`))).toEqual({ "2026-03-28": 1, "2026-03-29": 3 });
    const paris = await ok(keyA, `tz=Europe/Paris&${window}`);
    expect(turnsByDay(paris)).toEqual({ "2026-03-28": 3, "2026-03-29": 1 });
    expect(paris.days.map((d) => d.day)).toEqual(["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(paris.days[2]).toMatchObject({ start: "2026-03-28T23:00:00.000Z", end: "2026-03-29T22:00:00.000Z" });
    const kolkata = await ok(keyA, `tz=Asia/Kolkata&${window}`);
    expect(kolkata.days[2]).toMatchObject({ start: "2026-03-28T18:30:00.000Z", end: "2026-03-29T18:30:00.000Z" });
  });

  it("answers per key counts with the drop rate, findings per 1,000 turns, and the versions of the window", async () => {
    const answer = await ok(keyA, "tz=UTC&from=2026-03-28&to=2026-03-28");
    const [day] = answer.days;
    expect(day.turns).toBe(4);
    const requests = day.keys.find((k) => k.key === "requests")!;
    expect(requests.candidates).toBeGreaterThan(0);
    expect(requests.dropRate).toBe(requests.dropped / requests.candidates);
    for (const f of day.findings) expect(f.per1000Turns).toBe((f.count * 1000) / 4);
    expect(answer.copyVersions).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{28}$/), label: "Default copy" }]);
    expect(answer.policyVersions).toHaveLength(1);
    expect(day.followUp.map((f) => f.copyVersion)).toEqual(day.followUp.length ? [answer.copyVersions[0].id] : []);

    // Filters: another agent has nothing; the run's own versions keep it.
    expect(turnsByDay(await ok(keyA, "tz=UTC&from=2026-03-28&to=2026-03-28&agent=someone-else"))).toEqual({});
    const versions = `copyVersion=${answer.copyVersions[0].id}&policyVersion=${answer.policyVersions[0].id}`;
    expect(turnsByDay(await ok(keyA, `tz=UTC&from=2026-03-28&to=2026-03-28&agent=etf-agent&${versions}`))).toEqual({ "2026-03-28": 4 });
  });

  it("keeps projects apart", async () => {
    expect(turnsByDay(await ok(keyB, "tz=UTC&from=2026-03-28&to=2026-03-28"))).toEqual({ "2026-03-28": 10 });
    expect(turnsByDay(await ok(keyA, "tz=UTC&from=2026-03-28&to=2026-03-28"))).toEqual({ "2026-03-28": 4 });
  });

  it("defaults to the last 14 days of the time zone", async () => {
    const answer = await ok(keyA, "tz=Pacific/Kiritimati");
    expect(answer.days).toHaveLength(14);
    expect(answer.tz).toBe("Pacific/Kiritimati");
    expect(answer.to).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date()));
  });

  it("answers for the calendar's first and last days, their bounds kept to the instants an event can have", async () => {
    // Contract (telemetry, Instants): events lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.
    // UTC's 9999-12-31 ends at 10000-01-01 and Tokyo's 0001-01-01 (local mean time, +09:18:59) starts in year 0.
    const last = await ok(keyA, "tz=UTC&from=9999-12-29&to=9999-12-31");
    expect(last.days.map((d) => [d.day, d.start, d.end])).toEqual([
      ["9999-12-29", "9999-12-29T00:00:00.000Z", "9999-12-30T00:00:00.000Z"],
      ["9999-12-30", "9999-12-30T00:00:00.000Z", "9999-12-31T00:00:00.000Z"],
      ["9999-12-31", "9999-12-31T00:00:00.000Z", "9999-12-31T23:59:59.999Z"],
    ]);
    const first = await ok(keyA, "tz=Asia/Tokyo&from=0001-01-01&to=0001-01-02");
    expect(first.days.map((d) => d.day)).toEqual(["0001-01-01", "0001-01-02"]);
    expect(first.days[0].start).toBe("0001-01-01T00:00:00.000Z");
    expect(first.days[1].start > first.days[0].start).toBe(true);
  });

  it.each([
    ["tz=Mars/Olympus", "tz"],
    ["tz=", "tz"],
    ["tz=UTC&from=2026-02-30", "from"],
    ["tz=UTC&from=2026-03-10&to=2026-03-01", "to"],
    ["tz=UTC&from=2024-01-01&to=2026-01-01", "to"],
    ["tz=UTC&copyVersion=nope", "copyVersion"],
  ])("answers 400 naming the parameter for %s", async (query, path) => {
    const { status, body } = await trends(keyA, query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: "invalid", path } });
  });
});
