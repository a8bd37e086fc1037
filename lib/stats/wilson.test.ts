import { describe, expect, it } from "vitest";
import { newcombeDifference } from "./newcombe";
import { wilsonInterval } from "./wilson";

describe("wilsonInterval", () => {
  // Expected limits solved by hand from (p̂ − p)² = z²·p(1 − p)/n (python3, independently of this code).
  it.each([
    [0, 0, null],
    [5, 10, { low: 0.2366, high: 0.7634 }],
    [0, 10, { low: 0, high: 0.2775 }],
    [10, 10, { low: 0.7225, high: 1 }],
  ])("%i of %i", (k, n, expected) => {
    const interval = wilsonInterval(k, n);
    if (expected === null) expect(interval).toBeNull();
    else {
      expect(interval!.low).toBeCloseTo(expected.low, 4);
      expect(interval!.high).toBeCloseTo(expected.high, 4);
    }
  });
});

describe("newcombeDifference (Newcombe 1998, method 10)", () => {
  // The examples of Newcombe's Table II with the method 10 column (4 decimals), and each interval
  // recomputed in python3 from the method's definition with Wilson limits solved as a quadratic,
  // z = 1.959964 (8 decimals). The rounded recomputation equals the paper's figures.
  it.each([
    [56, 70, 48, 80, 0.2, 0.0524, 0.3339, 0.05243147, 0.33387265],
    [9, 10, 3, 10, 0.6, 0.1705, 0.809, 0.17052272, 0.80901797],
    [6, 7, 2, 7, 4 / 7, 0.0582, 0.8062, 0.05822793, 0.80624964],
    [5, 56, 0, 29, 5 / 56, -0.0381, 0.1926, -0.03813715, 0.19256001],
    [0, 10, 0, 20, 0, -0.1611, 0.2775, -0.16112516, 0.2775328],
    [0, 10, 0, 10, 0, -0.2775, 0.2775, -0.2775328, 0.2775328],
    [10, 10, 0, 20, 1, 0.6791, 1, 0.67908604, 1],
    [10, 10, 0, 10, 1, 0.6075, 1, 0.60750935, 1],
  ])("%i/%i − %i/%i", (x1, n1, x2, n2, difference, paperLow, paperHigh, low, high) => {
    const result = newcombeDifference(x1, n1, x2, n2)!;
    expect(result.difference).toBeCloseTo(difference, 12);
    expect(result.low).toBeCloseTo(low, 7);
    expect(result.high).toBeCloseTo(high, 7);
    expect(Number(result.low.toFixed(4))).toBe(paperLow);
    expect(Number(result.high.toFixed(4))).toBe(paperHigh);
  });

  it("reaches −1 when the first arm has none and the second all (python3: −1 to −0.38554901)", () => {
    const result = newcombeDifference(0, 5, 5, 5)!;
    expect(result.difference).toBe(-1);
    expect(result.low).toBeCloseTo(-1, 12);
    expect(result.high).toBeCloseTo(-0.38554901, 7);
  });

  it.each([
    [3, 4, 0, 0],
    [0, 0, 3, 4],
  ])("is null when an arm has no trials (%i/%i − %i/%i)", (x1, n1, x2, n2) => {
    expect(newcombeDifference(x1, n1, x2, n2)).toBeNull();
  });
});
