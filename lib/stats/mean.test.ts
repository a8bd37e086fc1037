import { describe, expect, it } from "vitest";
import { meanInterval } from "./mean";

/** The sums of a list of values, as a caller accumulates them. */
const sums = (values: number[]) => ({
  n: values.length,
  sum: values.reduce((s, v) => s + v, 0),
  sumSquares: values.reduce((s, v) => s + v * v, 0),
});

describe("meanInterval", () => {
  // Expected: scipy.stats.t.interval(0.95, n − 1, mean, sd(ddof=1)/√n) on the raw values (python3).
  // By hand for the first: mean 5, s² = 32/7, t975(7) = 2.364624, margin 2.364624·√(32/56) = 1.787488.
  it.each([
    [[2, 4, 4, 4, 5, 5, 7, 9], 5, 3.21251208, 6.78748792],
    [[1.5, 2.5], 2, -4.35310237, 8.35310237],
  ])("%j", (values, mean, low, high) => {
    const result = meanInterval(sums(values));
    expect(result.n).toBe(values.length);
    expect(result.mean).toBeCloseTo(mean, 12);
    expect(result.low).toBeCloseTo(low, 5);
    expect(result.high).toBeCloseTo(high, 5);
  });

  it.each([
    [
      { n: 0, sum: 0, sumSquares: 0 },
      { n: 0, mean: null, low: null, high: null },
    ],
    [
      { n: 1, sum: 4, sumSquares: 16 },
      { n: 1, mean: 4, low: null, high: null },
    ],
  ])("has no interval below two observations (%j)", (input, expected) => {
    expect(meanInterval(input)).toEqual(expected);
  });

  it("takes a tiny negative variance from rounding as 0 (three times 0.1: Σx² − (Σx)²/n ≈ −3.5e-18)", () => {
    const input = { n: 3, sum: 0.1 + 0.1 + 0.1, sumSquares: 0.1 * 0.1 + 0.1 * 0.1 + 0.1 * 0.1 };
    expect(input.sumSquares - (input.sum * input.sum) / 3).toBeLessThan(0);
    const result = meanInterval(input);
    expect(result.mean).toBeCloseTo(0.1, 12);
    expect(result.low).toBe(result.mean);
    expect(result.high).toBe(result.mean);
  });
});
