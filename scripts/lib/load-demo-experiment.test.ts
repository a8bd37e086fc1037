/**
 * The demo experiment end to end (contract §10): loaded into a project (twice: nothing changes),
 * rebuilt, and its results read as the API serves them, checked against a recount made here from
 * the loaded events alone: each run's due requests notices from the core's decisions (for the holdout,
 * a rebuild with the notice on) and §8's rule written out again (a `finalize` within 3 turns).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, ZPolicy, type TEvent, type TPolicy } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { demoExperimentRuns } from "@/lib/demo/experiment-demo";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { getExperimentResults } from "@/lib/server/experiments/results";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { databaseStore, DEMO_EXPERIMENT_ID, loadDemoExperiment } from "./load-demo-experiment";

const NOW = "2026-12-03T12:00:00.000Z";

/** Due requests notices of one run and how many were followed (a finalize in the next 3 turns). */
function dueRequests(events: TEvent[]): { due: number; followed: number; completed: boolean } {
  const started = events.find((e) => e.type === "run.started")!;
  const policy = (started.type === "run.started" ? started.body.policy : {}) as TPolicy;
  const on =
    policy.requests?.remind === false
      ? rebuild(events, { policy: ZPolicy.parse({ ...policy, requests: { ...policy.requests, remind: true } }) })
      : rebuild(events);
  const finalizes = events.filter((e) => e.type === "model.action" && e.body.kind === "finalize").map((e) => (e as { turn: number }).turn);
  let due = 0;
  let followed = 0;
  for (const turn of on.turns) {
    for (const r of turn.reminders) {
      if (r.key !== "requests") continue;
      due++;
      if (finalizes.some((f) => f > turn.turn && f <= turn.turn + 3)) followed++;
    }
  }
  const ended = events.find((e) => e.type === "run.ended");
  return { due, followed, completed: ended?.type === "run.ended" && ended.body.status === "completed" };
}

describe.each(testDatabases())("the demo experiment on $name", (kind) => {
  let db: Database;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    const caller = await authenticate(db, `Bearer ${(await createKey(db, "demo-exp")).secret}`);
    projectId = caller.projectId;
    const sink = (batch: readonly unknown[]) => ingestBatch(db, projectId, batch);
    const first = await loadDemoExperiment(databaseStore(db, caller), sink, NOW);
    expect(first.errors).toBe(0);
    // Loading again finds the versions and the experiment by name; every event is a duplicate.
    const again = await loadDemoExperiment(databaseStore(db, caller), sink, NOW);
    expect(again).toMatchObject({ runs: first.runs, errors: 0 });
    expect(await db.prisma.experiment.count({ where: { projectId } })).toBe(1);
    expect(await db.prisma.copyVersion.count({ where: { projectId } })).toBe(1);
    await settleRebuilds(db, { projectId });
  }, 600_000);
  afterAll(async () => db?.close());

  it("serves results per arm that match a recount from the events, and names the known effect at the horizon", async () => {
    const results = await getExperimentResults(db, projectId, DEMO_EXPERIMENT_ID);
    const runs = demoExperimentRuns(DEMO_EXPERIMENT_ID, NOW);
    for (const arm of results.arms) {
      const mine = runs.filter((r) => r.arm === arm.name).map((r) => dueRequests(r.events.map((e) => ZEvent.parse(e) as TEvent)));
      expect(arm.runs).toBe(mine.length);
      expect(arm).toMatchObject({ liveRuns: 0, mismatchedRuns: 0, reachedPlan: true });
      const due = arm.measures.find((m) => m.id === "due.requests")!;
      expect({ numerator: due.numerator, denominator: due.denominator }).toEqual({
        numerator: mine.reduce((s, r) => s + r.followed, 0),
        denominator: mine.reduce((s, r) => s + r.due, 0),
      });
      const finished = arm.measures.find((m) => m.id === "finished")!;
      expect(finished.numerator).toBe(mine.filter((r) => r.completed).length);
    }
    expect(results.horizon.reached).toBe(true);
    // The demo model follows a shown urgent notice with 0.6, a shown default one with 0.3 and an unseen
    // one with 0.05: the urgent arm is found higher; the holdout, never higher (with 25-odd runs an arm
    // its interval may still hold 0 at the Bonferroni level).
    const verdicts = new Map(results.verdict?.arms.map((a) => [a.arm, a]));
    expect(verdicts.get("urgent copy")?.verdict).toBe("higher than control");
    expect(verdicts.get("holdout")?.verdict).not.toBe("higher than control");
    expect(verdicts.get("holdout")?.difference.value).toBeLessThan(0);
  });
});
