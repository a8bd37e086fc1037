import { describe, expect, it } from "vitest";
import { FINDING_CODES, ZEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { DEMO_RUNS, demoRuns } from "./demo-set";

describe("the demo data set", () => {
  const runs = demoRuns("2026-11-30T12:00:00.000Z");

  it("has runs from 20 to 2,000 turns by several agents and models, one still live", () => {
    const turns = DEMO_RUNS.map((r) => r.turns!);
    expect(Math.min(...turns)).toBe(20);
    expect(Math.max(...turns)).toBe(2000);
    expect(new Set(DEMO_RUNS.map((r) => r.agent)).size).toBeGreaterThan(1);
    expect(new Set(DEMO_RUNS.map((r) => r.model)).size).toBeGreaterThan(2);
    expect(runs.filter((r) => !r.events.some((e) => e.type === "run.ended"))).toHaveLength(1);
  });

  it("uses event ids that are unique across the whole project", () => {
    const ids = runs.flatMap((r) => r.events.map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("is valid telemetry in which every contract §7 finding code appears", () => {
    const codes = new Set<string>();
    for (const run of runs) {
      const events = run.events.map((e) => ZEvent.parse(e));
      for (const finding of rebuild(events).findings) codes.add(finding.code);
    }
    expect([...codes].sort()).toEqual([...FINDING_CODES].sort());
  });
});
