import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/server/db";
import { claimReplay, releaseReplay } from "@/lib/server/replay/replay-queue";
import { runReplayJob, type EnqueueReplay } from "@/lib/server/replay/replay-jobs";
import { taskThreads } from "@/lib/server/background/tasks";

/**
 * Runs each started replay right away on this thread, as a replay worker would: claims it from the
 * queue, runs it, gives it back on failure (`done` settles when it is over, rejecting if it failed).
 */
export function inlineReplays(db: Database): EnqueueReplay {
  return async (projectId, replayId) => {
    const claim = await claimReplay(db, randomUUID(), 3_600, { projectId, replayId });
    if (!claim) {
      // Cancelled before a worker took it (cancelReplayJob ends a queued replay at once): nothing to run.
      const row = await db.prisma.replayJob.findFirst({ where: { projectId, id: replayId }, select: { status: true } });
      if (row && row.status !== "running") return;
      throw new Error(`replay ${replayId} could not be claimed (another replay of its project is at work)`);
    }
    try {
      await runReplayJob(db, taskThreads(0), claim);
    } catch (error) {
      await releaseReplay(db, claim, (error as Error).message, 0);
      throw error;
    }
  };
}
