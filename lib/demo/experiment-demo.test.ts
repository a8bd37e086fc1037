import { describe, expect, it } from "vitest";
import { AGENT_COMPARISON_CODES, ZEvent, type TEvent } from "@/lib/contracts";
import { assignArm, rebuild } from "@/lib/core";
import { DEMO_EXPERIMENT, demoExperimentRuns } from "./experiment-demo";

describe("the demo experiment's runs", () => {
  const runs = demoExperimentRuns("exp_demo_test", "2026-12-03T12:00:00.000Z");

  it("each run names the experiment and its assigned arm, and every arm reaches its planned runs", () => {
    for (const run of runs) {
      const started = run.events[0];
      expect(started.type).toBe("run.started");
      expect((started.body as { experiment: unknown }).experiment).toEqual({ id: "exp_demo_test", arm: run.arm });
      expect(assignArm("exp_demo_test", run.runId, DEMO_EXPERIMENT.arms).name).toBe(run.arm);
    }
    for (const arm of DEMO_EXPERIMENT.arms) {
      expect(runs.filter((r) => r.arm === arm.name).length).toBeGreaterThanOrEqual(DEMO_EXPERIMENT.plannedRuns);
    }
  });

  it("is valid telemetry whose recorded lists agree with the rebuild, the holdout without requests notices", () => {
    for (const run of runs) {
      const events = run.events.map((e) => ZEvent.parse(e) as TEvent);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(events.at(-1)).toMatchObject({ type: "run.ended", body: { status: "completed" } });
      const decisions = rebuild(events);
      // The agent's own lists match the rules (a holdout's agent sends no requests notice either).
      expect(decisions.findings.filter((f) => (AGENT_COMPARISON_CODES as readonly string[]).includes(f.code))).toEqual([]);
      const requestsNotices = decisions.turns.flatMap((t) => t.reminders.filter((r) => r.key === "requests"));
      if (run.arm === "holdout") expect(requestsNotices).toEqual([]);
      else expect(requestsNotices.length).toBeGreaterThan(0);
    }
  });
});
