import "server-only";
import { replayApi } from "@/lib/endpoints/replay";
import { isTransientDatabaseError } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { getBackground } from "@/lib/server/background/background";
import { cancelReplayJob, startReplay } from "@/lib/server/replay/replay-jobs";
import { answer, endpointRoute } from "./endpoint-route";

/** The replay endpoints that are writes (the reads are lib/server/loaders/replay.ts). */

/** 202 with the job (poll it), or 200 with a finished job of the same inputs. */
export const startReplayRoute = endpointRoute(replayApi.start, async ({ input, db, auth }) => {
  const background = await getBackground().catch(queueUnavailable);
  const { job, done } = await startReplay(db, auth, input.body, (projectId, replayId) => background.enqueueReplay(projectId, replayId));
  await done.catch(queueUnavailable); // not queued: the job reads as failed
  return answer(job.status === "running" ? 202 : 200, job);
});

/**
 * A job queue that could not be started or reached is a 503 the client may retry, never a 500,
 * whatever the queue library threw (a database fault is classified as such by the HTTP layer).
 */
function queueUnavailable(error: unknown): never {
  if (error instanceof DomainError || isTransientDatabaseError(error)) throw error;
  console.error("[cuescope] the job queue failed:", error);
  throw new DomainError("unavailable", "the job queue cannot be reached right now; the replay was not started — retry later", undefined, 5);
}

/** Stops a running job; a finished one is answered as it is. */
export const cancelReplayRoute = endpointRoute(replayApi.cancel, ({ input, db, auth }) =>
  cancelReplayJob(db, auth.projectId, input.path.id),
);
