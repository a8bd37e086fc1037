/**
 * Replays across projects: how long one project's replay takes to its result once a worker starts
 * (one replay worker, as a server runs by default), queued alone and then queued after ten
 * replays of another project. Projects take turns (lib/server/replay/replay-queue.ts), so the second
 * waits for at most the one replay at work, not for the other project's whole backlog: target ≤ 3×
 * alone (the replays are of the same size; 11× would be a first-come queue).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import { openDatabase, type Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { startBackground } from "@/lib/server/background/background";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { cancelReplayJob, startReplay } from "@/lib/server/replay/replay-jobs";
import { createPolicyVersion } from "@/lib/server/versions/versions";
import { fmt, median, table, verdict, type BenchContext, type BenchSection } from "./common";
import { taskThreads } from "@/lib/server/background/tasks";

const BACKLOG = 10;
const TARGET_RATIO = 3;

export function replayFairnessSection(): BenchSection {
  return {
    name: "replay-fairness",
    description: `one project's replay alone, then behind ${BACKLOG} of another project's (one worker; target ≤ ${TARGET_RATIO}× alone)`,
    run,
  };
}

async function run(ctx: BenchContext): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "cuescope-bench-fairness-"));
  const db = await openDatabase({ dataDir: join(dir, "data"), url: "" });
  try {
    ctx.progress("replay-fairness: loading two projects' runs ...");
    const [busy, other] = [await project(db, "bench-busy"), await project(db, "bench-other")];
    await settleRebuilds(db);
    let version = 0;
    /** Queues a replay of the project's runs with a version of its own (no worker runs yet). */
    const queue = async (caller: Caller) => {
      const policy = await createPolicyVersion(db, caller, {
        name: `v${version++}`,
        policy: { review: { everyTurns: 3 + (version % 5) } },
      });
      const { job } = await startReplay(db, caller, { policyVersionId: policy.id, filters: {}, maxRuns: 10 }, async () => {});
      return job.id;
    };
    /**
     * Starts a worker (as a server does: one job thread) on what is queued; ms from then until
     * project B's replay `id` ended (by its stored end, so the polling here measures nothing), and its row.
     */
    const work = async (id: string) => {
      const started = Date.now();
      const worker = await startBackground(db, { workers: 1, threads: taskThreads(1) });
      try {
        const row = await finished(db, other.projectId, id);
        return { ms: row.finishedAt!.getTime() - started, row };
      } finally {
        await worker.close();
      }
    };
    const alone: number[] = [];
    const behind: number[] = [];
    const aheadOf: number[] = [];
    for (let r = 0; r < Math.min(ctx.repeats, 3); r++) {
      ctx.progress(`replay-fairness: repetition ${r + 1}: alone ...`);
      alone.push((await work(await queue(other))).ms);

      ctx.progress(`replay-fairness: repetition ${r + 1}: behind ${BACKLOG} of another project's ...`);
      const backlog: string[] = [];
      for (let i = 0; i < BACKLOG; i++) backlog.push(await queue(busy));
      const { ms, row } = await work(await queue(other));
      behind.push(ms);
      aheadOf.push(
        await db.prisma.replayJob.count({ where: { projectId: busy.projectId, id: { in: backlog }, startedAt: { lt: row.startedAt! } } }),
      );
      for (const a of backlog) await cancelReplayJob(db, busy.projectId, a);
      const cleaner = await startBackground(db, { workers: 1, threads: taskThreads(1) });
      for (const a of backlog) await finished(db, busy.projectId, a);
      await cleaner.close();
    }
    const [soloMs, behindMs] = [median(alone), median(behind)];
    ctx.print(
      table(
        ["replay of project B", "median ms", `of A's ${BACKLOG} started first`, "× alone", `target ≤ ${TARGET_RATIO}×`],
        [
          ["alone", fmt.ms(soloMs), "—", "1.00", ""],
          [
            `queued after ${BACKLOG} of A's`,
            fmt.ms(behindMs),
            String(median(aheadOf)),
            fmt.ratio(behindMs / soloMs),
            verdict(behindMs / soloMs, TARGET_RATIO),
          ],
        ],
      ),
    );
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function project(db: Database, name: string): Promise<Caller> {
  const caller = await authenticate(db, `Bearer ${(await createKey(db, name)).secret}`);
  for (let i = 0; i < 4; i++) {
    const runId = `${name}-${i}`;
    const events = generateEtfRun({ runId, seed: 300 + i, turns: 120 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    await ingestBatch(db, caller.projectId, events);
  }
  return caller;
}

/** Waits for the replay to end; its row. */
async function finished(db: Database, projectId: string, id: string) {
  for (;;) {
    const row = await db.prisma.replayJob.findUniqueOrThrow({ where: { projectId_id: { projectId, id } } });
    if (row.status !== "running") return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
