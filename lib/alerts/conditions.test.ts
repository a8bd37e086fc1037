import { describe, expect, it } from "vitest";
import type { TAlertCondition, TMeterProjection, TReach, TRunProjection, TWindowedCondition } from "@/lib/contracts";
import {
  conditionCountKeys,
  conditionWindow,
  describeCondition,
  describeValue,
  judgeCounts,
  judgeLiveRuns,
  runsHref,
  turnsToLimit,
} from "./conditions";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("conditionWindow: the quarter hours back from the one now is in, that one included", () => {
  it.each([
    ["2026-12-05T10:07:30Z", 15, "2026-12-05T10:00:00.000Z", "2026-12-05T10:15:00.000Z"],
    ["2026-12-05T10:00:00Z", 15, "2026-12-05T10:00:00.000Z", "2026-12-05T10:15:00.000Z"],
    ["2026-12-05T10:14:59.999Z", 60, "2026-12-05T09:15:00.000Z", "2026-12-05T10:15:00.000Z"],
    ["2026-12-05T00:05:00Z", 1440, "2026-12-04T00:15:00.000Z", "2026-12-05T00:15:00.000Z"],
    ["2026-12-05T23:50:00Z", 10080, "2026-11-29T00:00:00.000Z", "2026-12-06T00:00:00.000Z"],
  ])("at %s over %i minutes: [%s, %s)", (now, minutes, from, to) => {
    const w = conditionWindow(minutes, at(now));
    expect([iso(w.from), iso(w.to)]).toEqual([from, to]);
  });
});

describe("judgeCounts", () => {
  const window = { from: at("2026-12-05T09:00:00Z"), to: at("2026-12-05T10:00:00Z") };
  const drop = (threshold: number, minCandidates: number): TAlertCondition => ({
    kind: "drop_rate",
    key: "context",
    threshold,
    minCandidates,
    windowMinutes: 60,
  });
  it.each([
    // [condition, counts, holds, what the value holds]
    [
      drop(0.2, 10),
      { "reminders.context.candidates": 40, "reminders.context.dropped": 12 },
      true,
      { dropped: 12, candidates: 40, rate: 0.3 },
    ],
    [drop(0.3, 10), { "reminders.context.candidates": 40, "reminders.context.dropped": 12 }, false, { rate: 0.3 }], // at the threshold: not above it
    [drop(0.2, 50), { "reminders.context.candidates": 40, "reminders.context.dropped": 12 }, false, { candidates: 40 }], // too few candidates
    [drop(0, 1), {}, false, { candidates: 0, rate: null }],
    [drop(0.2, 1), { "reminders.time.candidates": 10, "reminders.time.dropped": 10 }, false, { candidates: 0 }], // another key's drops
    [{ kind: "reviewer_violations", threshold: 3, windowMinutes: 60 } as const, { reviewerViolations: 4 }, true, { count: 4 }],
    [{ kind: "reviewer_violations", threshold: 3, windowMinutes: 60 } as const, { reviewerViolations: 3 }, false, { count: 3 }],
    [{ kind: "finding", code: "STAGE_MISMATCH", windowMinutes: 60 } as const, { "findings.STAGE_MISMATCH": 1 }, true, { count: 1 }],
    [{ kind: "finding", code: "STAGE_MISMATCH", windowMinutes: 60 } as const, { "findings.FREE_REQUEST": 5 }, false, { count: 0 }],
  ] as const)("%j over %j holds: %s", (condition, counts, holds, value) => {
    const judged = judgeCounts(condition as TWindowedCondition, new Map(Object.entries(counts)), window);
    expect(judged).toMatchObject({ ...value, holds, from: "2026-12-05T09:00:00.000Z", to: "2026-12-05T10:00:00.000Z" });
  });

  it("reads the rollup keys the trend buckets name", () => {
    expect(conditionCountKeys(drop(0.1, 1))).toEqual(["reminders.context.candidates", "reminders.context.dropped"]);
    expect(conditionCountKeys({ kind: "reviewer_violations", threshold: 0, windowMinutes: 15 })).toEqual(["reviewerViolations"]);
    expect(conditionCountKeys({ kind: "meter_stage", meter: "time", stage: 2 })).toEqual([]);
    expect(conditionCountKeys({ kind: "runs_out", meter: "requests", withinTurns: 20 })).toEqual([]);
  });
});

describe("the words and the link", () => {
  it("says a drop rate with its counts and its 95% Wilson interval", () => {
    // 12 of 40: Wilson's 95% interval is 0.1807–0.4543 (z = 1.95996, computed by hand from the formula).
    const text = describeValue(
      { kind: "drop_rate", key: "context", threshold: 0.2, minCandidates: 1, windowMinutes: 60 },
      {
        from: null,
        to: "",
        dropped: 12,
        candidates: 40,
        rate: 0.3,
        holds: true,
      },
    );
    expect(text).toBe("12 of 40 context candidates dropped: 30% (95% interval 18.1%–45.4%)");
  });

  it.each([
    [{ kind: "finding", code: "FREE_REQUEST", windowMinutes: 60 }, { agent: "a b" }, "/runs?finding=FREE_REQUEST&agent=a+b"],
    [{ kind: "reviewer_violations", threshold: 1, windowMinutes: 60 }, {}, "/runs?hasViolations=1"],
    [{ kind: "meter_stage", meter: "context", stage: 2 }, { model: "m" }, "/runs?status=live&model=m"],
    [{ kind: "runs_out", meter: "time", withinTurns: 5 }, { agent: "x", model: "m" }, "/runs?status=live&agent=x&model=m"],
  ] as const)("links %j in %j to %s", (condition, scope, href) => {
    expect(runsHref(condition, scope)).toBe(href);
  });
});

/** A reach of the limit (only its turns matter here). */
const reach = (turn: number | null, turnLow: number | null, turnHigh: number | null): TReach => ({
  value: 36,
  stage: null,
  turn,
  turnLow,
  turnHigh,
  minute: null,
  minuteLow: null,
  minuteHigh: null,
});
const meter = (name: TMeterProjection["meter"], limit: TReach): TMeterProjection => ({
  meter: name,
  unit: name === "time" ? "min" : name === "requests" ? "requests" : "bytes",
  fromTurn: 10,
  toTurn: 39,
  points: 30,
  perTurn: 1,
  perTurnLow: 0.8,
  perTurnHigh: 1.2,
  value: 20,
  nextStage: null,
  limit,
});
const projection = (lastTurn: number, ...meters: TMeterProjection[]): TRunProjection => ({ lastTurn, meters, first: null });

describe("turnsToLimit: the turns from the last rebuilt turn to a meter's projected limit", () => {
  it.each([
    // [what, projection, meter, expected]
    [
      "fitted turn 50 from turn 39, interval 48–55",
      projection(39, meter("requests", reach(50, 48, 55))),
      "requests",
      { turns: 11, low: 9, high: 16 },
    ],
    ["the slowest pace never reaches it", projection(39, meter("time", reach(45, 42, null))), "time", { turns: 6, low: 3, high: null }],
    // The meter's last reading was turn 37, already at its limit, and the run went on to turn 39: 0, not -2.
    ["a limit already reached", projection(39, meter("requests", reach(37, 37, 37))), "requests", { turns: 0, low: 0, high: 0 }],
    ["not at this pace", projection(39, meter("requests", reach(null, 80, null))), "requests", null],
    ["another meter only", projection(39, meter("context", reach(41, 40, 42))), "requests", null],
    [
      "the time meter, beside the requests meter",
      projection(9, meter("requests", reach(12, 12, 12)), meter("time", reach(30, 20, 45))),
      "time",
      { turns: 21, low: 11, high: 36 },
    ],
  ] as const)("%s", (_, p, m, expected) => {
    expect(turnsToLimit(p, m)).toEqual(expected);
  });

  it("is null without a projection", () => {
    expect(turnsToLimit(null, "requests")).toBeNull();
    expect(turnsToLimit(undefined, "time")).toBeNull();
  });
});

describe("the runs_out condition's words and value", () => {
  const now = at("2027-01-07T12:00:00Z");

  it("says the condition with its meter, its turns and the scope", () => {
    expect(describeCondition({ kind: "runs_out", meter: "requests", withinTurns: 20 }, { agent: "x" })).toBe(
      "a live run projected to run out of requests within 20 turns at its current pace (agent x)",
    );
    expect(describeCondition({ kind: "runs_out", meter: "time", withinTurns: 1 })).toBe(
      "a live run projected to run out of time within 1 turn at its current pace",
    );
    expect(describeCondition({ kind: "runs_out", meter: "time", withinTurns: 12_000 }, { agent: "a", model: "m" })).toBe(
      "a live run projected to run out of time within 12,000 turns at its current pace (agent a, model m)",
    );
  });

  it("holds with a run found, and carries the soonest run's turns and interval", () => {
    const value = judgeLiveRuns(2, ["r-1", "r-2"], now, { turns: 11, low: 9, high: 16 });
    expect(value).toEqual({
      from: null,
      to: "2027-01-07T12:00:00.000Z",
      runs: 2,
      runIds: ["r-1", "r-2"],
      soonestTurns: 11,
      soonestTurnsLow: 9,
      soonestTurnsHigh: 16,
      holds: true,
    });
    expect(judgeLiveRuns(0, [], now, null)).toMatchObject({ runs: 0, holds: false, soonestTurns: null });
    // A meter rule's value has no soonest fields at all (as before the runs_out kind).
    expect(Object.keys(judgeLiveRuns(1, ["r"], now))).not.toContain("soonestTurns");
  });

  const condition = { kind: "runs_out", meter: "requests", withinTurns: 20 } as const;
  it.each([
    [
      judgeLiveRuns(2, ["r-1", "r-2"], now, { turns: 11, low: 9, high: 16 }),
      "2 live runs projected to run out of requests within 20 turns: r-1, r-2; soonest in ~11 turns (95% interval 9–16 turns)",
    ],
    [
      judgeLiveRuns(1, ["r-1"], now, { turns: 1, low: 1, high: null }),
      "1 live run projected to run out of requests within 20 turns: r-1; soonest in ~1 turn (95% interval 1 turn or more)",
    ],
    [
      judgeLiveRuns(1, ["r-1"], now, { turns: 4, low: 4, high: 4 }),
      "1 live run projected to run out of requests within 20 turns: r-1; soonest in ~4 turns",
    ],
    [
      judgeLiveRuns(4, ["a", "b", "c", "d"], now, { turns: 0, low: 0, high: 0 }),
      "4 live runs projected to run out of requests within 20 turns: a, b, c, …; soonest already at its limit",
    ],
    [judgeLiveRuns(0, [], now, null), "0 live runs projected to run out of requests within 20 turns"],
    // A value stored without the soonest fields still reads.
    [{ from: null, to: "", runs: 1, runIds: ["r-1"], holds: true }, "1 live run projected to run out of requests within 20 turns: r-1"],
  ])("says %j as %s", (value, text) => {
    expect(describeValue(condition, value)).toBe(text);
  });
});
