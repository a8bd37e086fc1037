import type { Database } from "@/lib/server/db";
import { TaskThreads } from "@/lib/server/jobs/threads";
import { runReplayJob, type EnqueueReplay } from "@/lib/server/replay/replay-jobs";

/** Runs each started replay right away on this thread, as a queue worker would (`done` settles when it is over). */
export function inlineReplays(db: Database): EnqueueReplay {
  return (projectId, replayId) => runReplayJob(db, new TaskThreads(0), projectId, replayId, 0);
}
