import { describe, expect, it } from "vitest";
import { meterSummary } from "./meter-summary";

const p = (turn: number, value: number, stage = 0) => ({ turn, value, stage });

describe("meterSummary", () => {
  it.each([
    { name: "no points", unit: "bytes" as const, points: [], want: "bytes of the final request: no reading in these turns." },
    {
      name: "one point",
      unit: "requests" as const,
      points: [p(4, 12)],
      want: "requests used was 12 requests at turn 4; no stage reached.",
    },
    {
      name: "rising through two stages",
      unit: "requests" as const,
      points: [p(0, 1), p(120, 150, 1), p(250, 230, 2), p(419, 287, 2)],
      want: "requests used went from 1 request to 287 requests over turns 0–419 (highest 287 requests at turn 419); stage 1 from turn 120, stage 2 from turn 250.",
    },
    {
      name: "a jump over a stage names both, and the highest is not the last",
      unit: "bytes" as const,
      points: [p(0, 100), p(5, 9_000, 3), p(6, 2_000, 0)],
      want: "bytes of the final request went from 100 B to 2,000 B over turns 0–6 (highest 9,000 B at turn 5); stage 1 from turn 5, stage 2 from turn 5, stage 3 from turn 5.",
    },
  ])("$name", ({ unit, points, want }) => {
    const name = unit === "requests" ? "requests used" : "bytes of the final request";
    expect(meterSummary(name, unit, points)).toBe(want);
  });
});
