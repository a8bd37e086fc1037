import { describe, expect, it } from "vitest";
import type { TEffectivenessResponse } from "@/lib/contracts";
import { differenceText, effectCharts, effectCsv, fatigueCsv, rateText } from "./effect";

const none = { value: null, low: null, high: null };

describe("rateText and differenceText", () => {
  it.each([
    [{ value: 0.6, low: 0.31267, high: 0.83182 }, 6, 10, "60% [31.3%–83.2%] (6 of 10)"],
    [{ value: 1, low: null, high: null }, 1, 1, "100% (1 of 1)"],
    [none, 0, 0, "–"],
  ])("%j, %i of %i → %s", (estimate, x, n, text) => {
    expect(rateText(estimate, x, n)).toBe(text);
  });

  it.each([
    [{ value: 0.4, low: -0.11257, high: 0.68384 }, "+40 pp [−11.3 to +68.4]"],
    [{ value: -0.05, low: null, high: null }, "−5 pp"],
    [{ value: 0, low: -0.1, high: 0.1 }, "±0 pp [−10 to +10]"],
    [none, "–"],
  ])("%j → %s", (estimate, text) => {
    expect(differenceText(estimate)).toBe(text);
  });
});

const row = (
  contextStage: number | "none" | null,
  delivered: number,
  deliveredFollowed: number,
  dropped: number,
  droppedFollowed: number,
) => ({
  key: "requests" as const,
  stage: 1,
  kind: "notice" as const,
  contextStage,
  delivered,
  deliveredFollowed,
  dropped,
  droppedFollowed,
  deliveredRate: none,
  droppedRate: none,
  difference: none,
});

const zeroKeys = (over: Record<string, Partial<Record<string, number>>> = {}) =>
  (["requests", "time", "context", "edits", "review"] as const).map((key) => ({
    key,
    delivered: 0,
    deliveredFollowed: 0,
    dropped: 0,
    droppedFollowed: 0,
    deliveries: 0,
    repeats: 0,
    bytes: 0,
    contextBytes: 0,
    ...over[key],
  }));

const data: TEffectivenessResponse = {
  tz: "UTC",
  from: "2026-12-01",
  to: "2026-12-02",
  rows: [row(null, 10, 6, 5, 1), row(2, 6, 4, 4, 1), row(3, 4, 2, 1, 0)],
  fatigue: [
    {
      key: "requests",
      deliveries: 10,
      repeats: 2,
      meanTurnsBetweenRepeats: 3.5,
      bytes: 400,
      contextBytes: 400,
      capacityBytes: 80_000,
      capacityShare: 0.005,
      dominatedRuns: 1,
      runsWithReminderBytes: 3,
    },
  ],
  days: [
    { day: "2026-12-01", capacityBytes: 0, keys: zeroKeys() },
    {
      day: "2026-12-02",
      capacityBytes: 80_000,
      keys: zeroKeys({ requests: { delivered: 10, deliveredFollowed: 6, dropped: 5, droppedFollowed: 1, repeats: 2, contextBytes: 400 } }),
    },
  ],
};

describe("effectCharts", () => {
  const charts = effectCharts(data);

  it("per key: totals, rows per context stage, and each day's rates in percent (null without reminders)", () => {
    expect(charts.hasData).toBe(true);
    expect(charts.keys.map((k) => k.key)).toEqual(["requests"]);
    const [requests] = charts.keys;
    expect(requests.totals.map((r) => r.contextStage)).toEqual([null]);
    expect(requests.byContext.map((r) => r.contextStage)).toEqual([2, 3]);
    expect(requests.days).toEqual([
      { day: "2026-12-01", delivered: null, dropped: null },
      { day: "2026-12-02", delivered: 60, dropped: 20 },
    ]);
    expect(requests.summary).toBe(
      "requests: delivered reminders followed 60% (6 of 10), dropped ones 20% (1 of 5), 2026-12-01 to 2026-12-02 (UTC).",
    );
  });

  it("fatigue per key: repeats per day and the share of that day's capacity", () => {
    expect(charts.fatigue[0].days).toEqual([
      { day: "2026-12-01", repeats: 0, share: null },
      { day: "2026-12-02", repeats: 2, share: 0.5 },
    ]);
    expect(charts.fatigue[0].summary).toBe(
      "requests: 2 repeats in 10 deliveries, 3.5 turns apart on average; 400 B delivered, 0.5% of request capacity; most of the reminder bytes in 1 of 3 runs.",
    );
  });

  it("no rows: no data", () => {
    expect(effectCharts({ ...data, rows: [], fatigue: [] }).hasData).toBe(false);
  });
});

describe("CSV", () => {
  it("one line per row, empty cells for missing rates, CRLF", () => {
    const lines = effectCsv(data.rows).split("\r\n");
    expect(lines[0]).toMatch(/^key,stage,kind,context_stage,delivered,delivered_followed,delivered_rate,/);
    expect(lines[1]).toBe("requests,1,notice,all,10,6,,,,5,1,,,,,,");
    expect(lines[2]).toMatch(/^requests,1,notice,2,6,4,/);
    expect(lines).toHaveLength(5); // header, 3 rows, the empty string after the last CRLF
    expect(fatigueCsv(data.fatigue).split("\r\n")[1]).toBe("requests,10,2,3.5,400,400,80000,0.005,1,3");
  });
});
