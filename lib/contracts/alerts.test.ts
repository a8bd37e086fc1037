import { describe, expect, it } from "vitest";
import { ALERT_KINDS, ZAlertRuleCreate } from "./alerts";
import { problemsFrom } from "./issues";

const problem = (result: { success: boolean; error?: unknown }) =>
  result.success ? null : problemsFrom(result.error as Parameters<typeof problemsFrom>[0])[0];

describe("ZAlertRuleCreate: the runs_out condition", () => {
  it.each([
    [{ kind: "runs_out", meter: "requests", withinTurns: 20 }],
    [{ kind: "runs_out", meter: "time", withinTurns: 1 }],
    [{ kind: "runs_out", meter: "time", withinTurns: 100_000 }],
  ])("accepts %j as it is", (condition) => {
    expect(ZAlertRuleCreate.parse({ name: "x", condition }).condition).toEqual(condition);
  });

  it.each([
    [
      "no turns",
      { kind: "runs_out", meter: "requests" },
      "condition.withinTurns",
      /^expected a whole number of turns from 1 to 100,000, got nothing$/,
    ],
    [
      "0 turns",
      { kind: "runs_out", meter: "requests", withinTurns: 0 },
      "condition.withinTurns",
      /^expected a whole number of turns from 1 to 100,000$/,
    ],
    ["a fraction", { kind: "runs_out", meter: "requests", withinTurns: 2.5 }, "condition.withinTurns", /whole number of turns/],
    ["too many", { kind: "runs_out", meter: "requests", withinTurns: 100_001 }, "condition.withinTurns", /from 1 to 100,000/],
    ["turns as text", { kind: "runs_out", meter: "requests", withinTurns: "20" }, "condition.withinTurns", /got "20"/],
    [
      "the context meter",
      { kind: "runs_out", meter: "context", withinTurns: 20 },
      "condition.meter",
      /^expected a meter that runs out: requests or time$/,
    ],
    ["a stage", { kind: "runs_out", meter: "time", withinTurns: 20, stage: 2 }, "condition", /stage/],
  ])("refuses %s, naming the field", (_, condition, path, message) => {
    const found = problem(ZAlertRuleCreate.safeParse({ name: "x", condition }));
    expect(found?.path).toBe(path);
    expect(found?.message).toMatch(message);
  });

  it("is one of the kinds, and an unknown kind's message names it", () => {
    expect(ALERT_KINDS).toContain("runs_out");
    expect(problem(ZAlertRuleCreate.safeParse({ name: "x", condition: { kind: "soon" } }))?.message).toMatch(/meter_stage or runs_out/);
  });
});
