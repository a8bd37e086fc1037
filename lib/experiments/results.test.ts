import { describe, expect, it } from "vitest";
import { experimentResults, type ArmSum, type ArmDefinition } from "./results";

/** Per-run values as the rebuild stores them (contract §10), summed here by the test itself. */
interface RunValues {
  due?: [number, number];
  finished?: 0 | 1;
  requestsLeft?: number;
}

function sumsOf(arm: string, runs: RunValues[], status: ArmSum["status"] = "counted"): ArmSum[] {
  const totals = new Map<string, number>();
  const add = (key: string, n: number) => totals.set(key, (totals.get(key) ?? 0) + n);
  for (const run of runs) {
    add("runs", 1);
    if (run.due) {
      const [x, y] = run.due;
      add("due.requests.x", x);
      add("due.requests.y", y);
      add("due.requests.xx", x * x);
      add("due.requests.yy", y * y);
      add("due.requests.xy", x * y);
    }
    add("finished", run.finished ?? 0);
    if (run.requestsLeft !== undefined) {
      add("requestsLeft.n", 1);
      add("requestsLeft.sum", run.requestsLeft);
      add("requestsLeft.sumSq", run.requestsLeft ** 2);
    }
  }
  return [...totals].map(([key, n]) => ({ arm, status, key, n }));
}

const arm = (name: string, position: number, plannedRuns: number): ArmDefinition => ({
  name,
  position,
  weight: 1,
  plannedRuns,
  copyVersionId: null,
  policyVersionId: null,
});

// Arm A (control): due requests notices followed 1 of 2, 0 of 1, 1 of 1; B: 2 of 2, 1 of 1, 2 of 3.
const A: RunValues[] = [
  { due: [1, 2], finished: 1, requestsLeft: 4 },
  { due: [0, 1], finished: 0, requestsLeft: 0 },
  { due: [1, 1], finished: 1, requestsLeft: 2 },
];
const B: RunValues[] = [
  { due: [2, 2], finished: 1, requestsLeft: 1 },
  { due: [1, 1], finished: 1 },
  { due: [2, 3], finished: 1, requestsLeft: 3 },
];

// Expected values computed independently in Python from the per-run values: the ratio's delta-method
// variance as the sample variance of x − R·y over n·ȳ², t(2) = 4.302653; Welch/normal differences.
const close = (value: number | null, expected: number) => expect(value).toBeCloseTo(expected, 6);

describe("experimentResults", () => {
  const results = (planned: number, extra: ArmSum[] = []) =>
    experimentResults({
      experimentId: "exp",
      key: "requests",
      status: "running",
      arms: [arm("A", 0, planned), arm("B", 1, planned)],
      sums: [...sumsOf("A", A), ...sumsOf("B", B), ...extra],
    });

  it("ratio measures: Σ followed / Σ due over runs, delta-method interval with the run as the unit", () => {
    const [a, b] = results(3).arms;
    const dueA = a.measures.find((m) => m.id === "due.requests")!;
    const dueB = b.measures.find((m) => m.id === "due.requests")!;
    expect(dueA).toMatchObject({ numerator: 2, denominator: 4, runs: 3, vsControl: null, unit: "followed / due reminders" });
    close(dueA.estimate.value, 0.5);
    close(dueA.estimate.low, -0.4315517004173316);
    close(dueA.estimate.high, 1.4315517004173315);
    close(dueB.estimate.value, 5 / 6);
    close(dueB.estimate.low, 0.28563241495475467);
    close(dueB.estimate.high, 1.381034251711912);
    close(dueB.vsControl!.value, 1 / 3);
    close(dueB.vsControl!.low, -0.15892091270274078);
    close(dueB.vsControl!.high, 0.8255875793694075);
  });

  it("shares of runs with Wilson intervals, means per run with t intervals, each over its own runs", () => {
    const [a, b] = results(3).arms;
    const finishedA = a.measures.find((m) => m.id === "finished")!;
    expect(finishedA).toMatchObject({ numerator: 2, denominator: 3, runs: 3 });
    close(finishedA.estimate.low, 0.2076596008020477);
    close(finishedA.estimate.high, 0.9385080552796037);
    const leftA = a.measures.find((m) => m.id === "requestsLeft")!;
    const leftB = b.measures.find((m) => m.id === "requestsLeft")!;
    expect(leftA).toMatchObject({ runs: 3, unit: "requests" });
    close(leftA.estimate.value, 2);
    close(leftA.estimate.low, -2.9682757355591027);
    expect(leftB.runs).toBe(2); // the run without a requests reading is left out of n
    close(leftB.estimate.high, 14.706205);
    close(leftB.vsControl!.value, 0);
    close(leftB.vsControl!.high, 2.993894439514018);
  });

  it("names no winner before every arm has its planned ended runs", () => {
    const r = results(4);
    expect(r.horizon.reached).toBe(false);
    expect(r.horizon.message).toContain("Not enough runs yet: A 3 of 4, B 3 of 4");
    expect(r.verdict).toBeNull();
    expect(r.arms.every((a) => !a.reachedPlan)).toBe(true);
  });

  it("at the horizon, a verdict on the key's due follow-up at the Bonferroni level", () => {
    const r = results(3);
    expect(r.horizon.reached).toBe(true);
    // One comparison: level 0.95, the interval above (−0.159 … 0.826) holds 0.
    expect(r.verdict).toMatchObject({ measure: "due.requests", level: 0.95, arms: [{ arm: "B", verdict: "no difference shown" }] });
    const three = experimentResults({
      experimentId: "exp",
      key: "requests",
      status: "stopped",
      arms: [arm("A", 0, 3), arm("B", 1, 3), arm("C", 2, 3)],
      sums: [...sumsOf("A", A), ...sumsOf("B", B), ...sumsOf("C", B)],
    });
    expect(three.verdict!.level).toBeCloseTo(0.975, 12);
    // Two comparisons: z(1 − 0.05 / 4) = z(0.9875) = 2.2414 > 1.96, a wider interval than the measure's own 95% one.
    const wide = three.verdict!.arms[0].difference;
    const narrow = three.arms[1].measures.find((m) => m.id === "due.requests")!.vsControl!;
    expect(wide.high! - wide.low!).toBeGreaterThan(narrow.high! - narrow.low!);
    close((wide.high! - wide.low!) / (narrow.high! - narrow.low!), 2.2414027276049464 / 1.959963984540054);
  });

  it("says 'higher than control' when the whole interval is above 0", () => {
    const many = (runs: RunValues[], k: number) => Array.from({ length: k }, () => runs).flat();
    const r = experimentResults({
      experimentId: "exp",
      key: "requests",
      status: "running",
      arms: [arm("A", 0, 30), arm("B", 1, 30)],
      sums: [...sumsOf("A", many(A, 10)), ...sumsOf("B", many(B, 10))],
    });
    expect(r.verdict!.arms[0].verdict).toBe("higher than control");
  });

  it("counts live, mismatched and unknown-arm runs apart, outside every measure", () => {
    const r = results(3, [
      ...sumsOf("A", [{}, {}], "live"),
      ...sumsOf("B", [{}], "mismatched"),
      ...sumsOf("Z", [{}, {}, {}], "mismatched"),
    ]);
    expect(r.arms[0]).toMatchObject({ runs: 3, liveRuns: 2, mismatchedRuns: 0 });
    expect(r.arms[1]).toMatchObject({ runs: 3, liveRuns: 0, mismatchedRuns: 1 });
    expect(r.unknownArmRuns).toBe(3);
  });

  it("shows another key's measures only when some arm has its reminders; no estimate without a denominator", () => {
    const r = results(3, [{ arm: "B", status: "counted", key: "drop.context.y", n: 5 }]);
    const ids = r.arms[0].measures.map((m) => m.id);
    expect(ids.slice(0, 6)).toEqual([
      "due.requests",
      "followUp.requests",
      "drop.requests",
      "due.context",
      "followUp.context",
      "drop.context",
    ]);
    expect(ids).not.toContain("due.time");
    const dropA = r.arms[0].measures.find((m) => m.id === "drop.context")!;
    expect(dropA.estimate).toEqual({ value: null, low: null, high: null });
  });
});
