import { describe, expect, it } from "vitest";
import { ratioDifference, ratioInterval, type RatioSums } from "./ratio";

/** Per-run [X, Y] (followed, delivered) → the additive sums a caller stores. */
function sumsOf(runs: [number, number][]): RatioSums {
  const s = { n: runs.length, sumX: 0, sumY: 0, sumXX: 0, sumYY: 0, sumXY: 0 };
  for (const [x, y] of runs) {
    s.sumX += x;
    s.sumY += y;
    s.sumXX += x * x;
    s.sumYY += y * y;
    s.sumXY += x * y;
  }
  return s;
}

// Arm A, four runs. By hand: R = 8/17; the residuals X − R·Y are 11/17, −15/17, 20/17, −16/17, their
// sample variance (121 + 225 + 400 + 256)/(289·3) = 334/289, ȳ = 17/4, so Var(R) = (334/289)/(4·289/16)
// = 1336/83521 = 0.01599598, and R ± t975(3)·√Var = 0.470588 ± 3.182446·0.126475.
// python3 from the runs directly (numpy var/cov with ddof = 1 in the delta formula, and the residual
// form): A 0.06808769 to 0.87308878; B (five runs) R = 17/26, Var 0.00782864, 0.40818742 to 0.89950489.
const A: [number, number][] = [
  [3, 5],
  [1, 4],
  [4, 6],
  [0, 2],
];
const B: [number, number][] = [
  [2, 2],
  [5, 8],
  [3, 3],
  [6, 9],
  [1, 4],
];

describe("ratioInterval", () => {
  it.each([
    ["A", A, 8 / 17, 0.06808769, 0.87308878, 8, 17],
    ["B", B, 17 / 26, 0.40818742, 0.89950489, 17, 26],
  ])("arm %s", (_name, runs, ratio, low, high, sumX, sumY) => {
    const result = ratioInterval(sumsOf(runs));
    expect(result).toMatchObject({ n: runs.length, sumX, sumY });
    expect(result.ratio).toBeCloseTo(ratio, 12);
    expect(result.low).toBeCloseTo(low, 5);
    expect(result.high).toBeCloseTo(high, 5);
  });

  it("is cluster-robust: identical runs give a zero-width interval however many reminders each has", () => {
    const result = ratioInterval(
      sumsOf([
        [2, 4],
        [2, 4],
        [2, 4],
      ]),
    );
    expect(result.ratio).toBe(0.5);
    expect(result.low).toBeCloseTo(0.5, 12);
    expect(result.high).toBeCloseTo(0.5, 12);
  });

  it.each([
    ["one run", [[3, 5]], { ratio: 0.6, low: null, high: null, n: 1, sumX: 3, sumY: 5 }],
    [
      "nothing delivered",
      [
        [0, 0],
        [0, 0],
      ],
      { ratio: null, low: null, high: null, n: 2, sumX: 0, sumY: 0 },
    ],
    ["no runs", [], { ratio: null, low: null, high: null, n: 0, sumX: 0, sumY: 0 }],
  ] as [string, [number, number][], object][])("has no interval with %s", (_name, runs, expected) => {
    expect(ratioInterval(sumsOf(runs))).toEqual(expected);
  });
});

describe("ratioDifference", () => {
  // python3: R_A − R_B = 8/17 − 17/26 = −0.18325792, ± 1.959964·√(0.01599598 + 0.00782864): −0.48578276 to 0.11926692.
  it("adds the two arms' variances and uses the normal z", () => {
    const result = ratioDifference(sumsOf(A), sumsOf(B));
    expect(result.difference).toBeCloseTo(8 / 17 - 17 / 26, 12);
    expect(result.low).toBeCloseTo(-0.48578276, 6);
    expect(result.high).toBeCloseTo(0.11926692, 6);
  });

  it.each([
    [
      "an arm has nothing delivered",
      sumsOf([
        [0, 0],
        [0, 0],
      ]),
      { difference: null, low: null, high: null },
    ],
    ["an arm has one run", sumsOf([[3, 5]]), { difference: 8 / 17 - 0.6, low: null, high: null }],
  ])("has no interval when %s", (_name, b, expected) => {
    expect(ratioDifference(sumsOf(A), b)).toEqual(expected);
  });
});
