import { describe, expect, it } from "vitest";
import type { TAlertCondition } from "@/lib/contracts";
import { conditionCountKeys, conditionWindow, describeValue, judgeCounts, runsHref } from "./conditions";

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
    const judged = judgeCounts(condition as Exclude<TAlertCondition, { kind: "meter_stage" }>, new Map(Object.entries(counts)), window);
    expect(judged).toMatchObject({ ...value, holds, from: "2026-12-05T09:00:00.000Z", to: "2026-12-05T10:00:00.000Z" });
  });

  it("reads the rollup keys the trend buckets name", () => {
    expect(conditionCountKeys(drop(0.1, 1))).toEqual(["reminders.context.candidates", "reminders.context.dropped"]);
    expect(conditionCountKeys({ kind: "reviewer_violations", threshold: 0, windowMinutes: 15 })).toEqual(["reviewerViolations"]);
    expect(conditionCountKeys({ kind: "meter_stage", meter: "time", stage: 2 })).toEqual([]);
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
  ] as const)("links %j in %j to %s", (condition, scope, href) => {
    expect(runsHref(condition, scope)).toBe(href);
  });
});
