import { describe, expect, it } from "vitest";
import { normalQuantile, studentT975, Z975 } from "./quantiles";

describe("studentT975", () => {
  // Closed forms: df 1 is tan(0.475π), df 2 is 0.95/√(2·0.975·0.025).
  it("equals the closed forms at df 1 and 2", () => {
    expect(studentT975(1)).toBeCloseTo(Math.tan(0.475 * Math.PI), 6);
    expect(studentT975(2)).toBeCloseTo(0.95 / Math.sqrt(2 * 0.975 * 0.025), 6);
  });

  // The printed 3-decimal table (any statistics textbook's t table, two-sided 5%).
  it.each([
    [1, 12.706],
    [2, 4.303],
    [3, 3.182],
    [4, 2.776],
    [5, 2.571],
    [6, 2.447],
    [7, 2.365],
    [8, 2.306],
    [9, 2.262],
    [10, 2.228],
    [15, 2.131],
    [20, 2.086],
    [25, 2.06],
    [29, 2.045],
    [30, 2.042],
  ])("df %i rounds to the printed %d", (df, printed) => {
    expect(Number(studentT975(df).toFixed(3))).toBe(printed);
  });

  // The 0.975 quantile by bisection on the t CDF (mpmath's regularised incomplete beta, 30 digits;
  // scipy.stats.t.ppf agrees to 1e-14), python3. Beyond 30 the expansion is within 1e-4 (in fact 3e-8).
  it.each([
    [11, 2.2009852],
    [17, 2.1098156],
    [24, 2.0638986],
    [31, 2.0395134],
    [35, 2.0301079],
    [40, 2.0210754],
    [50, 2.0085591],
    [60, 2.0002978],
    [80, 1.9900634],
    [100, 1.9839715],
    [120, 1.9799304],
    [1000, 1.9623391],
  ])("df %i is %d", (df, expected) => {
    expect(Math.abs(studentT975(df) - expected)).toBeLessThan(1e-6);
  });

  it("tends to the normal's z, rounds a fractional df down below 30, and refuses df below 1", () => {
    expect(studentT975(Infinity)).toBe(Z975);
    expect(Z975).toBeCloseTo(1.959964, 6);
    expect(studentT975(4.7)).toBe(studentT975(4));
    expect(() => studentT975(0.5)).toThrow(RangeError);
    expect(() => studentT975(NaN)).toThrow(RangeError);
  });
});

describe("normalQuantile", () => {
  // Python's statistics.NormalDist().inv_cdf(p), computed independently.
  it.each([
    { p: 0.975, z: 1.9599639845400536 },
    { p: 0.9875, z: 2.2414027276049464 },
    { p: 1 - 0.05 / 6, z: 2.393979799818481 },
    { p: 0.99375, z: 2.4977054744123737 },
    { p: 0.995, z: 2.5758293035489 },
    { p: 0.5, z: 0 },
    { p: 0.001, z: -3.090232306167813 },
  ])("p = $p → $z", ({ p, z }) => {
    expect(Math.abs(normalQuantile(p) - z)).toBeLessThan(1e-8);
  });

  it.each([0, 1, -0.1, Number.NaN])("refuses p = %s", (p) => {
    expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});
