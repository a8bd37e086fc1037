import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { getReplayJob, startReplay } from "@/lib/server/replay/replay-jobs";
import { testDatabases } from "@/lib/server/testing/databases";
import { createPolicyVersion } from "@/lib/server/versions/versions";
import { startBackground, type Background } from "@/lib/server/background/background";
import { beatReplay, claimReplay, releaseReplay, REPLAY_ATTEMPTS, sweepReplays } from "./replay-queue";
import { ReplayWorkers } from "./replay-workers";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { taskThreads } from "@/lib/server/background/tasks";

/** Polls until `check` holds (workers work on their own schedule), failing after `ms`. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const nothingToDo = async () => {};

describe.each(testDatabases())("the replay queue on $name", (kind) => {
  let db: Database;
  let caller: Caller;
  const closing: Array<{ close(timeoutMs?: number): Promise<void> }> = [];
  const background = async (workers: number, replays?: NonNullable<Parameters<typeof startBackground>[1]>["replays"]) => {
    const started: Background = await startBackground(db, { workers, threads: taskThreads(0), retryDelay: 0, replays });
    closing.push(started);
    return started;
  };
  const projectOf = async (name: string) => (await authenticate(db, `Bearer ${(await createKey(db, name)).secret}`)).projectId;
  /** A replay of the project's runs, queued with nobody told (it waits for a worker to look), of a version of its own. */
  const queueReplay = async (name: string) => {
    const policy = await createPolicyVersion(db, caller, { name, policy: { review: { everyTurns: 3 } } });
    return (await startReplay(db, caller, { policyVersionId: policy.id, filters: {}, maxRuns: 5 }, nothingToDo)).job;
  };
  /** A queued row with no runs to replay (for the queue's order alone), created at `at`. */
  const queuedRow = (projectId: string, inputKey: string, at = new Date()) =>
    db.prisma.replayJob.create({ data: { projectId, filters: {}, inputKey, createdAt: at }, select: { id: true, projectId: true } });
  const row = (id: string) => db.prisma.replayJob.findUniqueOrThrow({ where: { projectId_id: { projectId: caller.projectId, id } } });

  beforeAll(async () => {
    db = await kind.open();
    caller = await authenticate(db, `Bearer ${(await createKey(db, "replay-queue")).secret}`);
    for (const [i, runId] of ["rq-a", "rq-b"].entries()) {
      const events = generateEtfRun({ runId, seed: 90 + i, turns: 30 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
      await ingestBatch(db, caller.projectId, events);
    }
    await settleRebuilds(db);
  }, 60_000);
  afterEach(async () => {
    for (const one of closing.splice(0)) await one.close(5_000).catch(() => {});
    delete process.env.CUESCOPE_REPLAY_EXPIRE_S;
  });
  afterAll(async () => db?.close());

  it("starts one project's replay before another project's backlog drains: projects take turns", async () => {
    const [a, b] = [await projectOf("fair-a"), await projectOf("fair-b")];
    const at = (ms: number) => new Date(Date.now() - 60_000 + ms);
    const backlog = [];
    for (let i = 0; i < 10; i++) backlog.push((await queuedRow(a, `a-${i}`, at(i))).id);
    const lone = (await queuedRow(b, "b-0", at(10))).id; // queued after all of A's
    const order: string[] = [];
    let atWork = 0;
    let mostAtWork = 0;
    const workers = await ReplayWorkers.start(db, {
      workers: 2,
      pollMs: 20,
      run: async (claim) => {
        if (claim.projectId === a || claim.projectId === b) order.push(claim.replayId);
        if (claim.projectId === a) mostAtWork = Math.max(mostAtWork, ++atWork);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (claim.projectId === a) atWork--;
        await db.prisma.replayJob.updateMany({ where: { id: claim.replayId, workerToken: claim.token }, data: { status: "done" } });
      },
    });
    closing.push(workers);
    await eventually(
      async () => order.length,
      (n) => n === 11,
    );
    // Round robin: B's lone replay is among the first two claimed (beside A's oldest, claimed at the
    // same moment by the other worker: which of the two starts first is the machine's), not after A's
    // backlog; A's run one at a time in the order they were queued.
    expect([...order.slice(0, 2)].sort()).toEqual([backlog[0], lone].sort());
    expect(order.filter((id) => id !== lone)).toEqual(backlog);
    // Two workers, but never two of one project's replays at once.
    expect(mostAtWork).toBe(1);
  }, 60_000);

  // Two workers claiming at once: one holds the project's oldest locked while it claims it. The other
  // must pass the project by, not take its second replay (which would then run before the first).
  // PostgreSQL only: the embedded database has one connection, so nothing claims beside a transaction.
  it.skipIf(kind.name !== "postgres")("passes a project by while its oldest replay is being claimed, never taking the next", async () => {
    const [p, other] = [await projectOf("head-locked"), await projectOf("head-free")];
    const first = await queuedRow(p, "h-1", new Date(Date.now() - 3_000));
    const second = await queuedRow(p, "h-2", new Date(Date.now() - 2_000));
    const others = await queuedRow(other, "o-1", new Date(Date.now() - 1_000));
    const claimed = await db.prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT id FROM replay_jobs WHERE project_id = $1 AND id = $2 FOR UPDATE`, p, first.id);
      return claimReplay(db, "second-worker", 60);
    });
    expect(claimed).toMatchObject({ projectId: other, replayId: others.id });
    // Once the first claimer is gone, the project's oldest is the one claimed.
    expect(await claimReplay(db, "third-worker", 60)).toMatchObject({ projectId: p, replayId: first.id });
    // Nothing of this test is left queued or at work for the next ones.
    const ids = [first.id, second.id, others.id];
    await db.prisma.replayJob.updateMany({ where: { id: { in: ids } }, data: { status: "done", heartbeatAt: null } });
  });

  it("claims at most one replay of a project at a time, across workers", async () => {
    const p = await projectOf("one-at-a-time");
    const [first, second] = [await queuedRow(p, "x-1"), await queuedRow(p, "x-2")];
    const claim = await claimReplay(db, "worker-1", 60, { projectId: p, replayId: first.id });
    expect(claim).toMatchObject({ projectId: p, replayId: first.id, attempt: 1 });
    expect(await claimReplay(db, "worker-2", 60, { projectId: p, replayId: second.id })).toBeNull();
    await releaseReplay(db, claim!, "stopped by the test", 0);
    expect(await claimReplay(db, "worker-2", 60, { projectId: p, replayId: second.id })).toMatchObject({ replayId: second.id });
    // The first was given back for a retry, with the reason.
    expect(await db.prisma.replayJob.findFirstOrThrow({ where: { id: first.id } })).toMatchObject({
      status: "running",
      heartbeatAt: null,
      attempts: 1,
      error: "attempt 1 failed: stopped by the test; retrying",
    });
    // The database keeps it so under races too: a second replay of the project at work is refused.
    await expect(
      db.executeSql(`UPDATE replay_jobs SET heartbeat_at = now() WHERE project_id = $1 AND id = $2`, [p, first.id]),
    ).rejects.toThrow(/replay_jobs_one_at_work_per_project/);
  });

  it("retries a replay whose attempt failed, and finishes it", async () => {
    const job = await queueReplay("retried");
    // A worker takes the job and fails (it crashed, say): it is given back and taken again.
    const claim = (await claimReplay(db, "crashing", 60, { projectId: caller.projectId, replayId: job.id }))!;
    await releaseReplay(db, claim, "worker crashed", 0);
    await background(1);
    const finished = await eventually(
      () => getReplayJob(db, caller.projectId, job.id),
      (j) => j.status !== "running",
    );
    expect(finished).toMatchObject({ status: "done", error: null });
    expect(finished.result?.runs).toBe(2);
    expect((await row(job.id)).attempts).toBe(2);
  }, 60_000);

  it("ends a replay as failed, with its last error, once every attempt failed", async () => {
    const doomed = await createPolicyVersion(db, caller, { name: "doomed", policy: { review: { everyTurns: 4 } } });
    const { job } = await startReplay(db, caller, { policyVersionId: doomed.id, filters: {}, maxRuns: 5 }, nothingToDo);
    // The version the replay needs disappears before a worker takes it: every attempt fails the same way.
    await db.prisma.policyVersion.delete({ where: { projectId_id: { projectId: caller.projectId, id: doomed.id } } });
    await background(1);
    const failed = await eventually(
      () => getReplayJob(db, caller.projectId, job.id),
      (j) => j.status !== "running",
      30_000,
    );
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/^attempt 3 failed: .*no policy version.*; no attempt left: start the replay again$/);
    expect((await row(job.id)).attempts).toBe(REPLAY_ATTEMPTS); // the first try and two retries
  }, 60_000);

  it("takes back, within the configured seconds, a replay whose worker died (claimed, never marked alive) and finishes it", async () => {
    // The dead worker claims the replay before the live one starts (a starting worker looks for queued
    // replays at once, and on a busy machine it could otherwise get there first): the live one can only
    // take it back.
    const job = await queueReplay("worker died");
    const dead = (await claimReplay(db, "dead-worker", 900, { projectId: caller.projectId, replayId: job.id }))!;
    expect(dead.attempt).toBe(1);
    await background(1, { heartbeatMs: 200, lostS: 1, pollMs: 60_000 });
    const finished = await eventually(
      () => getReplayJob(db, caller.projectId, job.id),
      (j) => j.status !== "running",
    );
    expect(finished).toMatchObject({ status: "done", error: null });
    expect((await row(job.id)).attempts).toBe(2); // the dead worker's, then the live one's
    // The dead worker, were it to come back, finds its claim gone.
    expect(await beatReplay(db, dead)).toBe(false);
  }, 30_000);

  it("fails a replay whose last attempt's worker died, saying so, not before the heartbeat was that old", async () => {
    const job = await queueReplay("last worker died");
    await db.prisma.replayJob.update({
      where: { projectId_id: { projectId: caller.projectId, id: job.id } },
      data: { attempts: REPLAY_ATTEMPTS - 1 },
    });
    const dead = (await claimReplay(db, "dead-worker", 900, { projectId: caller.projectId, replayId: job.id }))!;
    expect(await sweepReplays(db, { lostS: 30, retryDelayS: 0 })).toEqual([]); // alive a moment ago
    const swept = await eventually(
      () => sweepReplays(db, { lostS: 0.3, retryDelayS: 0 }),
      (taken) => taken.length > 0,
      5_000,
    );
    const message = `attempt ${REPLAY_ATTEMPTS} was lost: its worker sent no heartbeat for over 0.3 s (CUESCOPE_REPLAY_LOST_S); no attempt left: start the replay again`;
    expect(swept).toEqual([{ projectId: caller.projectId, replayId: job.id, error: message }]);
    const ended = await row(job.id);
    expect(ended).toMatchObject({ status: "failed", error: message, heartbeatAt: null, workerToken: null });
    expect(ended.finishedAt!.getTime() - ended.startedAt!.getTime()).toBeGreaterThanOrEqual(300);
    expect(await beatReplay(db, dead)).toBe(false);
  }, 30_000);

  it("applies CUESCOPE_REPLAY_EXPIRE_S as it is when a worker takes the replay, not as it was when it was queued", async () => {
    const job = await queueReplay("limited"); // queued under the default limit (900 s)
    await db.prisma.replayJob.update({
      where: { projectId_id: { projectId: caller.projectId, id: job.id } },
      data: { attempts: REPLAY_ATTEMPTS - 1 },
    });
    process.env.CUESCOPE_REPLAY_EXPIRE_S = "1";
    let stopped = false;
    const workers = await ReplayWorkers.start(db, {
      workers: 1,
      heartbeatMs: 100,
      lostS: 60,
      pollMs: 20,
      // A worker alive and marking its replay, that never finishes it: it stops when its claim is taken back.
      run: (_claim, lost) => new Promise<void>((resolve) => lost.addEventListener("abort", () => resolve((stopped = true) && undefined))),
    });
    closing.push(workers);
    const ended = await eventually(
      () => row(job.id),
      (r) => r.status !== "running" && stopped,
      10_000,
    );
    expect(ended).toMatchObject({
      status: "failed",
      error: `attempt ${REPLAY_ATTEMPTS} ran longer than its limit of 1 s (CUESCOPE_REPLAY_EXPIRE_S); no attempt left: start the replay again`,
    });
    expect(stopped).toBe(true);
  }, 30_000);

  it.runIf(kind.name === "pglite")(
    "takes up, on restart, a replay whose worker was lost with its process",
    async () => {
      const job = await queueReplay("restarted");
      await claimReplay(db, "died-with-its-process", 900, { projectId: caller.projectId, replayId: job.id });
      await background(1); // the restarted server: it owns the embedded database, so the replay was its own
      const finished = await eventually(
        () => getReplayJob(db, caller.projectId, job.id),
        (j) => j.status !== "running",
      );
      expect(finished.status).toBe("done");
      expect((await row(job.id)).attempts).toBe(2);
    },
    60_000,
  );
});
