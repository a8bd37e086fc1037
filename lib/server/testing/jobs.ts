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
    const claim = await claimWhenFree(db, projectId, replayId);
    if (!claim) return; // cancelled before a worker took it (cancelReplayJob ends a queued replay at once): nothing to run
    try {
      await runReplayJob(db, taskThreads(0), claim);
    } catch (error) {
      await releaseReplay(db, claim, (error as Error).message, 0);
      throw error;
    }
  };
}

/**
 * Claims the replay as a polling worker would: a claim that finds the row locked (a cancellation being
 * written skips it) tries again on the next poll. Null once the replay ended without a worker.
 */
async function claimWhenFree(db: Database, projectId: string, replayId: string) {
  for (let poll = 0; poll < 100; poll++) {
    const claim = await claimReplay(db, randomUUID(), 3_600, { projectId, replayId });
    if (claim) return claim;
    const row = await db.prisma.replayJob.findFirst({ where: { projectId, id: replayId }, select: { status: true } });
    if (!row || row.status !== "running") return null;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`replay ${replayId} could not be claimed in 100 polls (another replay of its project is at work)`);
}
