import { describe, expect, it } from "vitest";
import { effectivenessDays, effectRows, fatigueRows, parseEffectKey, type DayCount } from "./effectiveness";

// Wilson and Newcombe values below were computed independently in Python from the formulas of
// contract §10 (Wilson score, z = 1.959963984540054; Newcombe's hybrid score, method 10).
const close = (value: number | null, expected: number) => expect(value).toBeCloseTo(expected, 9);

describe("parseEffectKey", () => {
  it.each([
    ["effect.requests.2.3.delivered", { key: "requests", stage: 2, context: 3, count: "delivered" }],
    ["effect.review.all.none.droppedFollowed", { key: "review", stage: null, context: "none", count: "droppedFollowed" }],
    // Stored before derived version 6: a review count per checkpoint, taken as every checkpoint together.
    ["effect.review.7.2.delivered", { key: "review", stage: null, context: 2, count: "delivered" }],
    ["effect.requests.all.1.delivered", null],
    ["effect.budget.1.1.delivered", null],
    ["effect.requests.x.1.delivered", null],
    ["effect.requests.1.1.seen", null],
    ["reminders.requests.delivered", null],
  ])("%s", (name, expected) => {
    expect(parseEffectKey(name)).toEqual(expected);
  });
});

describe("effectRows", () => {
  // requests notices at stage 2, over two days: at context stage 2, 6 delivered (4 followed) and 4
  // dropped (1 followed); at context stage 3, 1 dropped (not followed); without a context meter,
  // 4 delivered (2 followed).
  const counts: DayCount[] = [
    { day: "d1", key: "effect.requests.2.2.delivered", n: 5 },
    { day: "d2", key: "effect.requests.2.2.delivered", n: 1 },
    { day: "d1", key: "effect.requests.2.2.deliveredFollowed", n: 4 },
    { day: "d1", key: "effect.requests.2.2.dropped", n: 4 },
    { day: "d2", key: "effect.requests.2.2.droppedFollowed", n: 1 },
    { day: "d2", key: "effect.requests.2.3.dropped", n: 1 },
    { day: "d1", key: "effect.requests.2.none.delivered", n: 4 },
    { day: "d2", key: "effect.requests.2.none.deliveredFollowed", n: 2 },
    { day: "d1", key: "effect.review.1.2.delivered", n: 2 },
    { day: "d2", key: "effect.review.all.2.delivered", n: 3 },
    { day: "d1", key: "turns", n: 99 },
  ];
  const rows = effectRows(counts);

  it("one row per key and stage over every context stage, then per context stage, in presentation order", () => {
    expect(rows.map((r) => [r.key, r.stage, r.contextStage, r.kind])).toEqual([
      ["requests", 2, null, "notice"],
      ["requests", 2, 2, "notice"],
      ["requests", 2, 3, "notice"],
      ["requests", 2, "none", "notice"],
      ["review", null, null, "suggestion"],
      ["review", null, 2, "suggestion"],
    ]);
    // Checkpoint 1's count stored per checkpoint (2) and the every-checkpoint count (3): one row.
    expect(rows[4]).toMatchObject({ delivered: 5, deliveredFollowed: 0 });
    expect(rows[0]).toMatchObject({ delivered: 10, deliveredFollowed: 6, dropped: 5, droppedFollowed: 1 });
  });

  it("rates with Wilson intervals, the difference with Newcombe's", () => {
    const [all, two, three, none] = rows;
    close(all.deliveredRate.value, 0.6);
    close(all.deliveredRate.low, 0.31267376973365824);
    close(all.droppedRate.high, 0.6244653702374747);
    close(all.difference.value, 0.4);
    close(all.difference.low, -0.11256922764627936);
    close(all.difference.high, 0.6838360479719787);
    close(two.difference.low, -0.16330928141973167);
    close(two.difference.high, 0.7293104111927264);
    expect(three.deliveredRate).toEqual({ value: null, low: null, high: null });
    close(three.droppedRate.high, 0.7934506856227626);
    expect(three.difference.value).toBeNull();
    close(none.deliveredRate.value, 0.5);
    expect(none.droppedRate.value).toBeNull();
  });
});

describe("fatigueRows and effectivenessDays", () => {
  const counts: DayCount[] = [
    { day: "d1", key: "reminders.edits.delivered", n: 6 },
    { day: "d2", key: "reminders.edits.delivered", n: 4 },
    { day: "d1", key: "fatigue.edits.repeats", n: 5 },
    { day: "d2", key: "fatigue.edits.repeats", n: 3 },
    { day: "d1", key: "fatigue.edits.repeatGapTurns", n: 8 },
    { day: "d2", key: "fatigue.edits.repeatGapTurns", n: 4 },
    { day: "d1", key: "fatigue.edits.bytes", n: 300 },
    { day: "d1", key: "fatigue.edits.contextBytes", n: 200 },
    { day: "d1", key: "fatigue.capacityBytes", n: 40_000 },
    { day: "d2", key: "fatigue.capacityBytes", n: 10_000 },
    { day: "d2", key: "fatigue.edits.dominatedRuns", n: 1 },
    { day: "d2", key: "fatigue.runsWithReminderBytes", n: 2 },
    { day: "d1", key: "effect.edits.1.0.delivered", n: 3 },
    { day: "d1", key: "effect.edits.2.1.delivered", n: 2 },
  ];

  it("per key: deliveries, repeats and the mean turns between them, bytes and their share of capacity, dominated runs", () => {
    expect(fatigueRows(counts)).toEqual([
      {
        key: "edits",
        deliveries: 10,
        repeats: 8,
        meanTurnsBetweenRepeats: 12 / 8,
        bytes: 300,
        contextBytes: 200,
        capacityBytes: 50_000,
        capacityShare: 200 / 50_000,
        dominatedRuns: 1,
        runsWithReminderBytes: 2,
      },
    ]);
  });

  it("every day of the window, days without counts at zero, stages and context stages summed per key", () => {
    const days = effectivenessDays(["d0", "d1", "d2"], counts);
    expect(days.map((d) => d.day)).toEqual(["d0", "d1", "d2"]);
    expect(days[0].keys.every((k) => Object.values(k).every((v) => v === 0 || typeof v === "string"))).toBe(true);
    expect(days[1].capacityBytes).toBe(40_000);
    expect(days[1].keys.find((k) => k.key === "edits")).toEqual({
      key: "edits",
      delivered: 5,
      deliveredFollowed: 0,
      dropped: 0,
      droppedFollowed: 0,
      deliveries: 6,
      repeats: 5,
      bytes: 300,
      contextBytes: 200,
    });
  });
});
