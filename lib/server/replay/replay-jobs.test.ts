import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TRunDecisions } from "../../contracts";
import { rebuild } from "../../core";
import { generateEtfRun } from "../../demo/etf-run";
import { authenticate, createKey, type Caller } from "../auth/keys";
import type { Database } from "../db";
import { ingestBatch } from "../ingest/ingest-batch";
import { getDecisions } from "../runs/run-reads";
import { testDatabases } from "../testing/databases";
import { createCopyVersion, createPolicyVersion, getCopyVersion } from "../versions/versions";
import { keyStatsOf } from "../../replay/key-stats";
import { loadRunEvents } from "../runs/run-events";
import { cancelReplayJob, getReplayJob, startReplay } from "./replay-jobs";

const RUNS = ["replay-a", "replay-b", "replay-c"];

describe.each(testDatabases())("what-if replay jobs on $name", (kind) => {
  let db: Database;
  let caller: Caller;
  let ownCopyId: string;
  let longCopyId: string;
  let tightPolicyId: string;

  beforeAll(async () => {
    db = await kind.open();
    caller = await authenticate(db, `Bearer ${(await createKey(db, "tuning", "Product")).secret}`);
    const policy = { context: { capacityBytes: 60_000, stages: [0.5, 0.7, 0.85, 0.95] }, edits: { perBlockLimit: 4, stages: [0.5, 1] }, review: { everyTurns: 10 } };
    for (const [i, runId] of RUNS.entries()) {
      const events = generateEtfRun({ runId, seed: 40 + i, turns: 150, policy }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
      await ingestBatch(db, caller.projectId, events);
    }
    ownCopyId = (await createCopyVersion(db, caller, { name: "own (default copy)", copy: {} })).id;
    longCopyId = (await createCopyVersion(db, caller, {
      name: "long context",
      copy: { context: { "*": `Context: ${"this request is nearly full — choose every piece of material with great care; ".repeat(6)}{requiredBytes} of {capacityBytes} bytes.` } },
    })).id;
    tightPolicyId = (await createPolicyVersion(db, caller, { name: "tight", policy: { ...policy, context: { capacityBytes: 40_000, stages: [0.5, 0.7, 0.85, 0.95] } } })).id;
  }, 120_000);
  afterAll(async () => db?.close());

  it("replaying with the runs' own copy changes nothing and matches the stored rebuild exactly", async () => {
    const { job, done } = await startReplay(db, caller, { copyVersionId: ownCopyId, filters: { q: "" }, maxRuns: 10 });
    expect(job.status).toBe("running");
    await done;
    const finished = await getReplayJob(db, caller.projectId, job.id);
    expect(finished.status).toBe("done");
    expect(finished.progress).toMatchObject({ totalRuns: 3, doneRuns: 3, totalTurns: 450, doneTurns: 450 });
    expect(finished.result!.changedRuns).toEqual([]);
    for (const { baseline, whatIf } of finished.result!.keys) expect(whatIf).toEqual(baseline);
    const stored = (await getDecisions(db, caller.projectId, "replay-a")) as TRunDecisions;
    expect(stored.turns.length).toBeGreaterThan(100);
  });

  it("longer copy under a tight policy drops more, lists the changed turns, and a second look is instant", async () => {
    const request = { copyVersionId: longCopyId, policyVersionId: tightPolicyId, filters: {}, maxRuns: 10 };
    const { job, done } = await startReplay(db, caller, request);
    await done;
    const result = (await getReplayJob(db, caller.projectId, job.id)).result!;
    const context = result.keys.find((k) => k.key === "context")!;
    expect(context.whatIf.dropped).toBeGreaterThan(context.baseline.dropped);
    expect(result.changedRuns.length).toBeGreaterThan(0);
    expect(result.changedRuns[0].turns[0].changes.length).toBeGreaterThan(0);
    expect(result.followUp.map((f) => f.key)).toEqual(["requests", "time", "context", "edits", "review"]);
    const review = result.followUp.find((f) => f.key === "review")!;
    if (review.delivered > 0) expect(review.low!).toBeLessThanOrEqual(review.rate!);

    const again = await startReplay(db, caller, request);
    expect(again.job).toMatchObject({ id: job.id, reused: true, status: "done" });
  });

  it("reports per key exactly what the core says for the same runs and overrides", async () => {
    const long = await getCopyVersion(db, caller.projectId, longCopyId);
    const { job, done } = await startReplay(db, caller, { copyVersionId: longCopyId, filters: {}, maxRuns: 10 });
    await done;
    const result = (await getReplayJob(db, caller.projectId, job.id)).result!;
    const runs = await db.prisma.run.findMany({ where: { projectId: caller.projectId } });
    const expected = keyStatsOf(await Promise.all(runs.map(async (run) => rebuild(await loadRunEvents(db, run), { copy: long.copy }))));
    expect(result.keys.map((k) => k.whatIf)).toEqual(expected);
  });

  it("can be cancelled, and refuses unknown versions and empty selections by name", async () => {
    const { job, done } = await startReplay(db, caller, { policyVersionId: tightPolicyId, filters: { status: "completed" }, maxRuns: 10 });
    await cancelReplayJob(db, caller.projectId, job.id);
    await done;
    expect(["cancelled", "done"]).toContain((await getReplayJob(db, caller.projectId, job.id)).status);
    await expect(startReplay(db, caller, { copyVersionId: "nope", filters: {}, maxRuns: 10 })).rejects.toMatchObject({ kind: "not_found" });
    await expect(startReplay(db, caller, { copyVersionId: longCopyId, filters: { agent: "nobody" }, maxRuns: 10 })).rejects.toMatchObject({ kind: "invalid", path: "filters" });
  });
});
