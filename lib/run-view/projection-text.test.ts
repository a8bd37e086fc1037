import { describe, expect, it } from "vitest";
import type { TMeterProjection } from "@/lib/contracts";
import { projectionText, reachText } from "./projection-text";

const requests: TMeterProjection = {
  meter: "requests",
  unit: "requests",
  fromTurn: 10,
  toTurn: 39,
  points: 30,
  perTurn: 2,
  perTurnLow: 1.8,
  perTurnHigh: 2.25,
  value: 78,
  nextStage: { value: 90, stage: 3, turn: 45, turnLow: 45, turnHigh: 45, minute: 22.5, minuteLow: 22.5, minuteHigh: 22.5 },
  limit: { value: 100, stage: null, turn: 50, turnLow: 49, turnHigh: null, minute: 25, minuteLow: 24.5, minuteHigh: null },
};

describe("projection in words", () => {
  it("says the pace in the meter's unit with its interval, then the next stage and the limit with theirs", () => {
    expect(projectionText(requests)).toBe(
      "+2 requests a turn (95%: 1.8 requests to 2.3 requests) over turns 10–39: stage 3 at turn 45, at 22.5 min on the run clock; " +
        "the usable requests run out at turn 50 (49 or later), at 25 min on the run clock.",
    );
  });

  it.each([
    { reach: { ...requests.limit, turn: null, turnLow: 70, turnHigh: null, minute: null }, text: "not at this pace" },
    { reach: { ...requests.limit, turnLow: 48, turnHigh: 53, minute: null }, text: "turn 50 (48–53)" },
  ])("$text", ({ reach, text }) => {
    expect(reachText(reach)).toBe(text);
  });
});
