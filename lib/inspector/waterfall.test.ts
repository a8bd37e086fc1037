import { describe, expect, it } from "vitest";
import type { TReminderDecision, TTurnDecision } from "@/lib/contracts";
import { barPercent, fittingWaterfall } from "./waterfall";

function r(key: TReminderDecision["key"], bytes: number, status: TReminderDecision["status"], freeBytes?: number): TReminderDecision {
  return {
    key,
    subject: key === "edits" ? "b1" : null,
    kind: key === "edits" ? "state" : key === "review" ? "suggestion" : "notice",
    stage: 1,
    text: "x".repeat(Math.max(0, bytes - 1)),
    bytes,
    status,
    ...(status === "dropped" ? { dropReason: "capacity" as const, freeBytes } : {}),
  };
}
type D = Pick<TTurnDecision, "requiredBytes" | "capacityBytes" | "freeBytesAfter" | "reminders">;

/** Contract §9, turn 10: free 38; 19 fits (19 left), 21 dropped (19 free), 17 fits (2 left), 20 dropped (2 free). */
const teaching: D = {
  requiredBytes: 9962,
  capacityBytes: 10000,
  freeBytesAfter: 2,
  reminders: [r("requests", 19, "delivered"), r("context", 21, "dropped", 19), r("edits", 17, "delivered"), r("review", 20, "dropped", 2)],
};

describe("fittingWaterfall (R8)", () => {
  it("follows the teaching turn of contract §9 step by step", () => {
    const w = fittingWaterfall(teaching);
    expect(w.freeStart).toBe(38);
    expect(w.freeEnd).toBe(2);
    expect(w.steps.map((s) => [s.key, s.fits, s.freeBefore, s.freeAfter, s.offset, s.shortBy])).toEqual([
      ["requests", true, 38, 19, 0, 0],
      ["context", false, 19, 19, 19, 2],
      ["edits", true, 19, 2, 19, 0],
      ["review", false, 2, 2, 36, 18],
    ]);
    expect([w.includedBytes, w.droppedCount]).toEqual([36, 2]);
    expect(w.scale).toBe(56);
    expect(w.limitInScale).toBe(true);
  });

  it.each<[string, D, { freeStart: number | null; freeAfter: (number | null)[]; scale: number; limitInScale: boolean }]>([
    [
      "a request over capacity drops everything (negative free bytes)",
      {
        requiredBytes: 10_050,
        capacityBytes: 10_000,
        freeBytesAfter: -50,
        reminders: [r("requests", 30, "dropped", -50), r("time", 40, "dropped", -50)],
      },
      { freeStart: -50, freeAfter: [-50, -50], scale: 40, limitInScale: true },
    ],
    [
      "no context section: no byte limit, everything fits",
      {
        requiredBytes: 500,
        capacityBytes: null,
        freeBytesAfter: null,
        reminders: [r("requests", 30, "pending"), r("review", 40, "pending")],
      },
      { freeStart: null, freeAfter: [null, null], scale: 70, limitInScale: false },
    ],
    [
      "free bytes far beyond the costs are not drawn to scale",
      { requiredBytes: 1_000, capacityBytes: 200_000, freeBytesAfter: 198_900, reminders: [r("requests", 100, "delivered")] },
      { freeStart: 199_000, freeAfter: [198_900], scale: 100, limitInScale: false },
    ],
    [
      "free bytes of the same order as the costs set the scale",
      { requiredBytes: 9_700, capacityBytes: 10_000, freeBytesAfter: 200, reminders: [r("requests", 100, "delivered")] },
      { freeStart: 300, freeAfter: [200], scale: 300, limitInScale: true },
    ],
    [
      "no reminders",
      { requiredBytes: 10, capacityBytes: 100, freeBytesAfter: 90, reminders: [] },
      { freeStart: 90, freeAfter: [], scale: 1, limitInScale: false },
    ],
  ])("%s", (_, decision, expected) => {
    const w = fittingWaterfall(decision);
    expect({ freeStart: w.freeStart, freeAfter: w.steps.map((s) => s.freeAfter), scale: w.scale, limitInScale: w.limitInScale }).toEqual(
      expected,
    );
  });

  it("takes a dropped reminder's free bytes from the decision", () => {
    const w = fittingWaterfall({ requiredBytes: 90, capacityBytes: 100, freeBytesAfter: 10, reminders: [r("context", 12, "dropped", 10)] });
    expect(w.steps[0]).toMatchObject({ freeBefore: 10, shortBy: 2, fits: false });
  });
});

describe("barPercent", () => {
  it.each([
    [19, 56, (19 / 56) * 100],
    [0, 56, 0],
    [80, 56, 100],
    [-5, 56, 0],
    [5, 0, 0],
  ])("barPercent(%s, %s) = %s", (bytes, scale, pct) => expect(barPercent(bytes, scale)).toBeCloseTo(pct, 6));
});
