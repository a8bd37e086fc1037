import { describe, expect, it } from "vitest";
import { outputRatio, percentOf, ratioOf, stageOf } from "./stages";

describe("R2 stages", () => {
  it.each([
    // [numerator, denominator, stages, expected stage]
    [17, 36, [0.5, 0.75, 0.9], 0],
    [18, 36, [0.5, 0.75, 0.9], 1], // exactly at a threshold counts (r >= t)
    [28, 36, [0.5, 0.75, 0.9], 2], // jumps two stages at once
    [36, 36, [0.5, 0.75, 0.9], 3],
    [50, 36, [0.5, 0.75, 0.9], 3], // over the limit: still the highest stage
    [0, 0, [0.5, 1], 2], // denominator 0: infinite, highest stage
    [3, -2, [0.5, 1], 2], // negative denominator (reserve above limit): infinite
    [7, 10, [0.7, 0.85, 0.95], 1], // 0.7 as a double reaches 0.7
    [1, 3, [0.3333333333333333], 1],
    [2, 4, [0.5, 1.0], 1],
    [4, 4, [0.5, 1.0], 2],
  ])("%i / %i with %j is stage %i", (n, d, stages, expected) => {
    expect(stageOf(ratioOf(n, d), stages)).toBe(expected);
  });

  it("compares the IEEE double, not a rounded figure", () => {
    // 0.1 + 0.2 style: 29/100 = 0.29 exactly as parsed; 0.29 threshold is reached
    expect(stageOf(ratioOf(29, 100), [0.29])).toBe(1);
    // 0.7 * 3 = 2.0999999999999996 < 2.1: 21/10 reaches 2.1 but the rounding trap does not apply
    expect(stageOf(ratioOf(21, 10), [2.1])).toBe(1);
  });
});

describe("output ratio", () => {
  it.each([
    [28 / 36, 0.7778],
    [0.5, 0.5],
    [9962 / 10000, 0.9962],
    [1 / 3, 0.3333],
    [Number.POSITIVE_INFINITY, null],
  ])("%f is shown as %s", (ratio, shown) => {
    expect(outputRatio(ratio)).toBe(shown);
  });
});

describe("percent placeholder", () => {
  it.each([
    [28, 36, 77],
    [36, 36, 100],
    [43, 36, 119], // never capped
    [0, 36, 0],
    [5, 0, 100], // denominator <= 0
    [5, -4, 100],
    [1, 3, 33],
    [2, 3, 66],
    [9007199254740991, 9007199254740991, 100], // exact on large integers
    [9007199254740990, 9007199254740991, 99],
  ])("floor(100 × %i / %i) = %i", (n, d, expected) => {
    expect(percentOf(n, d)).toBe(expected);
  });
});
