import { describe, expect, it } from "vitest";
import type { TMeterProjection } from "@/lib/contracts";
import { checkText, projectionText, reachText } from "./projection-text";

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

describe("a check of the projection in words", () => {
  const check = {
    meter: "requests" as const,
    stage: 2,
    value: 75,
    reachedTurn: 51,
    madeAtTurn: 21,
    turn: 75,
    turnLow: 70,
    turnHigh: 80,
    offBy: 24,
    inside: false,
  };
  it.each([
    { check, text: "Stage 2 reached at turn 51, 24 turns sooner than projected at turn 21: turn 75 (70–80), outside its interval." },
    {
      check: { ...check, stage: null, reachedTurn: 76, offBy: -1, inside: true },
      text: "The limit reached at turn 76, 1 turn later than projected at turn 21: turn 75 (70–80), inside its interval.",
    },
    {
      check: { ...check, reachedTurn: 75, offBy: 0, turnLow: 75, turnHigh: 75, inside: true },
      text: "Stage 2 reached at turn 75, as projected at turn 21: turn 75, inside its interval.",
    },
    {
      check: { ...check, turn: null, turnLow: null, turnHigh: null, offBy: null },
      text: "Stage 2 reached at turn 51; projected at turn 21, it was not reached at that pace.",
    },
  ])("$text", ({ check, text }) => {
    expect(checkText(check)).toBe(text);
  });
});
