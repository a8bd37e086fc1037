import { describe, expect, it } from "vitest";
import type { TReminderDecision, TTurnDecision } from "@/lib/contracts";
import { rebuildOutputExample, workedExampleFitting } from "@/lib/testing/contract-text";
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

/** Contract §9's turn 10, as contract §6's output example writes it, and §9's fitting table. */
const teaching: D = rebuildOutputExample().turns[0];
const fitting = workedExampleFitting();

describe("fittingWaterfall (R8)", () => {
  it("follows the teaching turn of contract §9 step by step", () => {
    const w = fittingWaterfall(teaching);
    const free = teaching.capacityBytes! - teaching.requiredBytes;
    expect(w.freeStart).toBe(free);
    expect(w.freeEnd).toBe(fitting.at(-1)!.freeBytesAfter);
    // Each step as §9's table has it: fits or not, the free bytes before (the previous row's after) and after.
    expect(w.steps.map((s) => [s.fits, s.freeBefore, s.freeAfter])).toEqual(
      fitting.map((row, i) => [row.result === "delivered", i === 0 ? free : fitting[i - 1].freeBytesAfter, row.freeBytesAfter]),
    );
    expect(w.steps.map((s) => [s.key, s.offset, s.shortBy])).toEqual([
      ["requests", 0, 0],
      ["context", 19, 2],
      ["edits", 19, 0],
      ["review", 36, 18],
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
