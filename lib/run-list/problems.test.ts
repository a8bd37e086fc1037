import { describe, expect, it } from "vitest";
import { runProblems } from "./problems";

const counts = (dropped: number) => ({ delivered: 4, dropped, failed: 0, uncertain: 0, pending: 0 });

describe("a run's problems in the runs list", () => {
  it.each([
    [{ reminders: counts(0), findings: 0, reviewerViolations: 0 }, null],
    [{ reminders: counts(0), findings: 0, reviewerViolations: null }, null],
    [{ reminders: counts(3), findings: 0, reviewerViolations: null }, "3 dropped reminders"],
    [{ reminders: counts(1), findings: 2, reviewerViolations: 0 }, "1 dropped reminder, 2 findings"],
    [{ reminders: counts(0), findings: 1, reviewerViolations: 1 }, "1 finding, 1 Reviewer violation"],
    [{ reminders: counts(1200), findings: 0, reviewerViolations: 0 }, "1,200 dropped reminders"],
  ])("%o → %s", (run, expected) => {
    expect(runProblems(run)).toBe(expected);
  });
});
