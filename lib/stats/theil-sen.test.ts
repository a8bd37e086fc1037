import { describe, expect, it } from "vitest";
import { theilSen } from "./theil-sen";

describe("theilSen", () => {
  it("recovers an exact line, with a zero-width interval", () => {
    const xs = Array.from({ length: 10 }, (_, i) => i);
    expect(
      theilSen(
        xs,
        xs.map((x) => 2 * x + 3),
      ),
    ).toEqual({ slope: 2, intercept: 3, slopeLow: 2, slopeHigh: 2, n: 10 });
  });

  it("is not moved by one outlier in five (worked by hand)", () => {
    // Pairwise slopes: six of 1 among the first four points; 25, 33, 49, 97 with the outlier. Median 1; intercept median(0,0,0,0,96) = 0.
    // n = 5, N = 10, C = 1.96 × √(5·4·15/18) ≈ 8.0: ranks max(1, ⌊0.999⌋) = 1 and min(10, ⌈9.0⌉ + 1) = 10.
    const fit = theilSen([0, 1, 2, 3, 4], [0, 1, 2, 3, 100])!;
    expect(fit.slope).toBe(1);
    expect(fit.intercept).toBe(0);
    expect([fit.slopeLow, fit.slopeHigh]).toEqual([1, 97]);
  });

  it.each([
    { name: "two points", xs: [0, 1], ys: [0, 1] },
    { name: "one x only", xs: [3, 3, 3], ys: [1, 2, 3] },
  ])("has no fit for $name", ({ xs, ys }) => {
    expect(theilSen(xs, ys)).toBeNull();
  });
});
