import { describe, expect, it } from "vitest";
import { studentT975, Z975 } from "./quantiles";

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
