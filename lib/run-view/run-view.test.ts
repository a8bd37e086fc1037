import { describe, expect, it } from "vitest";
import { groupFindings } from "./finding-groups";
import { freshnessNote, isBehind } from "./freshness";
import { policySummary } from "./policy-summary";
import { laneBuckets, notificationMarks } from "./lane-marks";
import { reminderTitle, stripMarks } from "./strip-layout";
import { turnTicks, valueDomain, valueTicks, zoomedValueScale } from "./turn-ticks";
import {
  axisDomain,
  panWindow,
  parseTurnParam,
  parseWindowParams,
  selectTurnParams,
  turnAtFraction,
  turnFraction,
  windowFromDrag,
  windowAround,
  withViewParams,
  zoomIn,
  zoomOut,
} from "./turn-window";

describe("turn window (URL ⇄ axis ⇄ brush)", () => {
  it("reads ?turn and ?from/?to strictly", () => {
    expect(parseTurnParam("12")).toBe(12);
    expect(parseTurnParam("-1")).toBeNull();
    expect(parseTurnParam("1.5")).toBeNull();
    expect(parseTurnParam(null)).toBeNull();
    expect(parseWindowParams("10", "50")).toEqual({ from: 10, to: 50 });
    expect(parseWindowParams("50", "10")).toEqual({ from: 10, to: 50 });
    expect(parseWindowParams("10", null)).toEqual({ from: 10 });
    expect(parseWindowParams("x", "")).toBeNull();
  });

  it("clamps the zoom into the run's extent and widens a one-turn domain", () => {
    expect(axisDomain([0, 419], null)).toEqual({ from: 0, to: 419 });
    expect(axisDomain([0, 419], { from: 100, to: 5000 })).toEqual({ from: 100, to: 419 });
    expect(axisDomain([0, 419], { to: 50 })).toEqual({ from: 0, to: 50 });
    expect(axisDomain([7, 7], null)).toEqual({ from: 6, to: 8 });
    expect(axisDomain(null, null)).toEqual({ from: 0, to: 1 });
  });

  it("maps turns to fractions of the plot and back", () => {
    const domain = { from: 100, to: 300 };
    expect(turnFraction(200, domain)).toBe(0.5);
    expect(turnAtFraction(0.5, domain)).toBe(200);
    expect(turnAtFraction(-1, domain)).toBe(100);
    expect(turnAtFraction(2, domain)).toBe(300);
  });

  it("turns a drag into a window, either direction, at least 4 turns wide, null for the whole run", () => {
    expect(windowFromDrag(300, 120, [0, 1999])).toEqual({ from: 120, to: 300 });
    expect(windowFromDrag(50, 51, [0, 1999])).toEqual({ from: 49, to: 53 });
    expect(windowFromDrag(0, 1, [0, 1999])).toEqual({ from: 0, to: 4 });
    expect(windowFromDrag(1999, 1999, [0, 1999])).toEqual({ from: 1995, to: 1999 });
    expect(windowFromDrag(-5, 5000, [0, 1999])).toBeNull();
  });

  it("zooms out and pans inside the run", () => {
    expect(zoomOut({ from: 100, to: 200 }, [0, 1999])).toEqual({ from: 50, to: 250 });
    expect(zoomOut({ from: 0, to: 1500 }, [0, 1999])).toBeNull();
    expect(panWindow({ from: 100, to: 200 }, 1, [0, 1999])).toEqual({ from: 150, to: 250 });
    expect(panWindow({ from: 10, to: 110 }, -1, [0, 1999])).toEqual({ from: 0, to: 100 });
  });

  it.each([
    { name: "no zoom stays no zoom", turn: 900, window: null, want: null },
    { name: "a turn inside keeps the window", turn: 150, window: { from: 100, to: 200 }, want: { from: 100, to: 200 } },
    { name: "a turn outside centres the same width on it", turn: 600, window: { from: 100, to: 200 }, want: { from: 550, to: 650 } },
    { name: "near the start it stops at the first turn", turn: 10, window: { from: 500, to: 700 }, want: { from: 0, to: 200 } },
    { name: "near the end it stops at the last turn", turn: 1995, window: { from: 100, to: 300 }, want: { from: 1799, to: 1999 } },
  ])("windowAround: $name", ({ turn, window, want }) => {
    expect(windowAround(turn, window, [0, 1999])).toEqual(want);
  });

  it.each([
    { window: { from: 100, to: 200 }, want: { from: 125, to: 175 } },
    { window: { from: 0, to: 1999 }, want: { from: 500, to: 1499 } },
    { window: { from: 100, to: 104 }, want: { from: 100, to: 104 } },
  ])("zoomIn halves $window around its centre, never below the smallest window", ({ window, want }) => {
    expect(zoomIn(window, [0, 1999])).toEqual(want);
  });

  it("writes the selection and the window into the search string, keeping the rest", () => {
    expect(withViewParams("", { turn: 12 })).toBe("?turn=12");
    expect(withViewParams("?turn=12&x=1", { window: { from: 5, to: 50 } })).toBe("?turn=12&x=1&from=5&to=50");
    expect(withViewParams("?turn=12&from=5&to=50", { window: null, turn: null })).toBe("");
  });

  it("keeps the zoom when a selected turn is inside it, else leaves it", () => {
    expect(selectTurnParams("?from=10&to=50", 20)).toBe("?from=10&to=50&turn=20");
    expect(selectTurnParams("?from=10&to=50&turn=20", 300)).toBe("?turn=300");
    expect(selectTurnParams("", 7)).toBe("?turn=7");
  });
});

describe("axis ticks and value domains", () => {
  it("chooses whole-turn ticks on a 1-2-5 step", () => {
    expect(turnTicks(0, 419)).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400]);
    expect(turnTicks(0, 1999)).toEqual([0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800]);
    expect(turnTicks(103, 117)).toEqual([104, 106, 108, 110, 112, 114, 116]);
    expect(turnTicks(0, 3)).toEqual([0, 1, 2, 3]);
    expect(turnTicks(5, 5)).toEqual([5]);
  });

  it("puts value ticks on round numbers inside the domain", () => {
    expect(valueTicks(2688)).toEqual([0, 1000, 2000]);
    expect(valueTicks(4.2)).toEqual([0, 1, 2, 3, 4]);
    expect(valueTicks(212_000)).toEqual([0, 50_000, 100_000, 150_000, 200_000]);
    expect(valueTicks(4.48, 2)).toEqual([0, 2, 4]);
    expect(valueTicks(752)).toEqual([0, 200, 400, 600]);
    expect(valueTicks(31.8)).toEqual([0, 10, 20, 30]);
    expect(valueTicks(0)).toEqual([0]);
  });

  it("keeps every reference line on the chart", () => {
    expect(valueDomain([1, 2, 3], [54, 60], 0)).toEqual([0, 60]);
    expect(valueDomain([250_000], [200_000], 0)).toEqual([0, 250_000]);
    expect(valueDomain([], [])).toEqual([0, 1]);
  });
});

describe("reminder strips", () => {
  const domain = { from: 0, to: 100 };
  it("places marks by turn and stage, problems drawn last, out-of-window left out", () => {
    const marks = stripMarks(
      [
        { turn: 10, stage: 1, status: "dropped", bytes: 104, freeBytes: 15 },
        { turn: 20, toTurn: 60, stage: 2, status: "delivered", bytes: 90 },
        { turn: 200, stage: 3, status: "delivered", bytes: 90 },
      ],
      domain,
      3,
      "context",
    );
    expect(marks.map((m) => [m.turn, m.toTurn, m.row, m.status])).toEqual([
      [20, 60, 1, "delivered"],
      [10, 10, 2, "dropped"],
    ]);
    expect(marks[0].left).toBe(0.2);
    expect(marks[0].right).toBe(0.6);
  });

  it("says what was needed and what was free for a dropped reminder", () => {
    expect(reminderTitle("context", { turn: 812, stage: 3, status: "dropped", bytes: 104, freeBytes: 15 })).toBe(
      "turn 812 · context reminder, stage 3 · dropped: needs 104 B, 15 B free",
    );
    expect(reminderTitle("edits", { turn: 5, toTurn: 9, subject: "b3", stage: 1, status: "delivered", bytes: 141 })).toBe(
      "turns 5–9 · edits reminder (b3), stage 1 · delivered on each rebuilt turn (141 B)",
    );
  });

  it("counts a folded item's reminders and gives their worst case", () => {
    expect(reminderTitle("context", { turn: 1000, toTurn: 1099, count: 37, stage: 2, status: "dropped", bytes: 104, freeBytes: -5 })).toBe(
      "turns 1,000–1,099 · 37 context reminders, stage 2 · dropped: need up to 104 B, as little as -5 B free · zoom in for each",
    );
    expect(reminderTitle("review", { turn: 10, toTurn: 90, count: 9, stage: 1, status: "delivered", bytes: 89 })).toBe(
      "turns 10–90 · 9 review reminders, from checkpoint 1 · delivered (up to 89 B) · zoom in for each",
    );
  });
});

describe("notification lane", () => {
  it("places notifications of the window only", () => {
    const marks = notificationMarks(
      [
        { turn: 5, channel: "email", message: "done" },
        { turn: 500, channel: "email", message: "x" },
      ],
      { from: 0, to: 10 },
    );
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ x: 0.5, title: "turn 5 · user notified via email: done" });
  });

  it("shows a folded item that reaches into the window at the window's edge, with its count", () => {
    const marks = notificationMarks([{ turn: 0, toTurn: 40, count: 12, channel: "email, slack", message: "halfway" }], {
      from: 20,
      to: 60,
    });
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({
      x: 0,
      title: "turns 0–40 · 12 user notifications via email, slack; the first: halfway · zoom in for each",
    });
  });
});

describe("header policy summary", () => {
  it("states each limit in its own unit, never combined", () => {
    const parts = policySummary({
      requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] },
      time: { limitMs: 1_800_000, stages: [0.5, 0.75, 0.9] },
      context: { capacityBytes: 200_000, stages: [0.7, 0.85, 0.95] },
      edits: { perBlockLimit: 4, stages: [0.5, 1] },
      review: { everyTurns: 10, afterMs: 600_000 },
      reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
    });
    expect(parts.map((p) => p.text).join(" · ")).toBe(
      "60 requests (6 reserved) · 30 min · 200,000 B · 4 edits/block · review every 10 turns / 10 min · Reviewer auto-review on, ≥ 8 requests left",
    );
    expect(parts[0].detail).toBe("requests: stages at 50% · 75% · 90% of 54 requests usable");
  });

  it("leaves out sections the policy lacks", () => {
    expect(policySummary({ context: { capacityBytes: 10_000, stages: [0.7] } }).map((p) => p.text)).toEqual(["10,000 B"]);
    expect(policySummary(null)).toEqual([]);
  });
});

describe("findings view", () => {
  it("groups by code, violations first, with counts and unique turns", () => {
    const groups = groupFindings(
      [
        { turn: 3, code: "MISSING_REMINDER", count: 2 },
        { turn: 9, code: "DISPATCH_WITHOUT_ADMISSION", count: 1 },
        { turn: 1, code: "MISSING_REMINDER", count: 1 },
        { turn: 4, code: "INCOMPLETE_TURN", count: 1 },
      ],
      [{ code: "GLOBAL_STOP_ON_LOCAL_QUOTA", count: 1 }],
    );
    expect(groups.map((g) => [g.code, g.count, g.turns, g.runLevel])).toEqual([
      ["DISPATCH_WITHOUT_ADMISSION", 1, [9], 0],
      ["GLOBAL_STOP_ON_LOCAL_QUOTA", 1, [], 1],
      ["MISSING_REMINDER", 3, [1, 3], 0],
      ["INCOMPLETE_TURN", 1, [4], 0],
    ]);
  });

  it("keeps folded markers as spans of turns with their counts", () => {
    const groups = groupFindings(
      [
        { turn: 3, code: "MISSING_REMINDER", count: 2 },
        { turn: 100, toTurn: 199, code: "MISSING_REMINDER", count: 40 },
      ],
      [],
    );
    expect(groups.map((g) => [g.code, g.count, g.turns, g.spans])).toEqual([
      ["MISSING_REMINDER", 42, [3], [{ turn: 100, toTurn: 199, count: 40 }]],
    ]);
  });
});

describe("freshness", () => {
  it.each([
    { run: { staleEvents: 0, rebuildPending: false, eventCount: 40 }, behind: false, note: null },
    {
      run: { staleEvents: 1, rebuildPending: false, eventCount: 41 },
      behind: true,
      note: "Updating: 1 newer event not in these figures yet.",
    },
    {
      run: { staleEvents: 12, rebuildPending: false, eventCount: 52 },
      behind: true,
      note: "Updating: 12 newer events not in these figures yet.",
    },
    {
      run: { staleEvents: 7, rebuildPending: true, eventCount: 7 },
      behind: true,
      note: "Not rebuilt yet: the rebuild of its 7 events is queued.",
    },
  ])("says whether a run's figures are behind its events ($run.staleEvents stale)", ({ run, behind, note }) => {
    expect(isBehind(run)).toBe(behind);
    expect(freshnessNote(run)).toBe(note);
  });
});

describe("zoomedValueScale", () => {
  it.each([
    { values: [270, 275, 290], domain: [270, 295], ticks: [270, 275, 280, 285, 290, 295] },
    { values: [2, 0], domain: [0, 3], ticks: [0, 1, 2, 3] },
    { values: [5, 5], domain: [4, 6], ticks: [4, 5, 6] },
    { values: [9_990, 9_990, 5_000], domain: [4_000, 10_000], ticks: [4_000, 6_000, 8_000, 10_000] },
    { values: [0.12, 0.5], domain: [0.1, 0.6], ticks: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] },
    { values: [0, 0], domain: [0, 1], ticks: [0, 1] },
    { values: [], domain: [0, 1], ticks: [0, 1] },
  ])("fits $values", ({ values, domain, ticks }) => {
    expect(zoomedValueScale(values)).toEqual({ domain, ticks });
  });

  it("always holds every value, never goes below 0, and its ticks are its ends and the steps between", () => {
    for (const values of [[1, 2, 3], [100, 101], [0.001, 0.004], [42], [3_000_000, 2_999_000]]) {
      const { domain, ticks } = zoomedValueScale(values);
      expect(domain[0]).toBeGreaterThanOrEqual(0);
      expect(domain[0]).toBeLessThanOrEqual(Math.min(...values));
      expect(domain[1]).toBeGreaterThanOrEqual(Math.max(...values));
      expect(ticks[0]).toBe(domain[0]);
      expect(ticks.at(-1)).toBeCloseTo(domain[1]);
    }
  });
});

describe("laneBuckets", () => {
  it("counts items per bucket of turns, with folded items by their weight, leaving empty buckets out", () => {
    const items = [{ turn: 0 }, { turn: 3 }, { turn: 9 }, { turn: 10, weight: 5 }, { turn: 99 }, { turn: 150 }];
    expect(laneBuckets(items, { from: 0, to: 99 }, 10)).toEqual([
      { from: 0, to: 9, count: 3, x1: 0, x2: 10 / 99 },
      { from: 10, to: 19, count: 5, x1: 10 / 99, x2: 20 / 99 },
      { from: 90, to: 99, count: 1, x1: 90 / 99, x2: 1 },
    ]);
  });

  it("every item in the window is counted once, whatever the number of buckets", () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ turn: (i * 37) % 1_000 }));
    for (const n of [1, 7, 60, 2_000]) {
      const buckets = laneBuckets(items, { from: 100, to: 899 }, n);
      expect(buckets.reduce((sum, b) => sum + b.count, 0)).toBe(items.filter((i) => i.turn >= 100 && i.turn <= 899).length);
      for (const b of buckets) expect(b.from).toBeLessThanOrEqual(b.to);
    }
  });
});
