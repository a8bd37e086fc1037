import { describe, expect, it } from "vitest";
import { poissonRateInterval } from "./poisson";

describe("poissonRateInterval", () => {
  it("is exact at a count of 0: lower 0, upper −ln 0.025 (P(0 events | μ) = e^−μ = 0.025)", () => {
    const result = poissonRateInterval(0, 500, 1000)!;
    expect(result.rate).toBe(0);
    expect(result.low).toBe(0);
    expect(result.high).toBeCloseTo((-Math.log(0.025) / 500) * 1000, 5);
  });

  it("is exact at a count of 1: lower −ln 0.975 (P(≥ 1 event | μ) = 1 − e^−μ = 0.025)", () => {
    expect(poissonRateInterval(1, 1)!.low).toBeCloseTo(-Math.log(0.975), 6);
  });

  // Exact Garwood limits per 1,000 turns: the Poisson mean's limits by bisection on the regularised
  // lower incomplete gamma (mpmath), python3, which agree with scipy's chi2.ppf(0.025, 2x)/2 and
  // chi2.ppf(0.975, 2x + 2)/2. Byar's approximation (from a count of 10) must be within 0.2% of them,
  // the exact table below 10 within its 6 decimals.
  it.each([
    [0, 500, 0, 0, 7.37775891],
    [3, 1200, 2.5, 0.5155601, 7.30606089],
    [9, 3000, 3, 1.37179103, 5.69493448],
    [10, 2500, 4, 1.91815548, 7.35614242],
    [25, 4000, 6.25, 4.04467046, 9.22623292],
    [120, 30000, 4, 3.31639752, 4.78301951],
  ])("%i findings in %i turns", (count, turns, rate, low, high) => {
    const result = poissonRateInterval(count, turns, 1000)!;
    expect(result.rate).toBeCloseTo(rate, 12);
    const tolerance = count < 10 ? 1e-5 : 0.002;
    expect(Math.abs(result.low - low)).toBeLessThanOrEqual(tolerance * low);
    expect(Math.abs(result.high / high - 1)).toBeLessThanOrEqual(tolerance);
  });

  it("defaults to a rate per unit of exposure", () => {
    expect(poissonRateInterval(4, 2)!.rate).toBe(2);
  });

  it.each([0, -5, NaN])("is null for exposure %d", (exposure) => {
    expect(poissonRateInterval(3, exposure, 1000)).toBeNull();
  });

  it.each([-1, 2.5, NaN])("refuses count %d", (count) => {
    expect(() => poissonRateInterval(count, 100)).toThrow(RangeError);
  });
});
