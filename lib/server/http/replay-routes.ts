import "server-only";
import { ZIdPathParams, ZReplayRequest } from "@/lib/contracts";
import { replayJobLoader, replayListLoader, replayMatchingLoader, replayTurnLoader } from "@/lib/server/loaders/replay";
import { isTransientDatabaseError } from "@/lib/server/db";
import { DomainError, parseWith } from "@/lib/server/errors";
import { getBackground } from "@/lib/server/jobs/background";
import { cancelReplayJob, startReplay } from "@/lib/server/replay/replay-jobs";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { loaderRoute } from "./loader-route";
import { readJsonBody } from "./request";

type IdParams = { id: string };

/** A replay job's id from the path, checked like any other parameter. */
function jobIdOf(params: IdParams): string {
  return parseWith(ZIdPathParams, { id: params.id }, "path").id;
}

/** POST /api/v1/replay — 202 with the job (poll it), or 200 with a finished job of the same inputs. */
export const startReplayRoute = apiRoute(async ({ request, db, auth }) => {
  const body = parseWith(ZReplayRequest, await readJsonBody(request, 64 * 1024), "body");
  const background = await getBackground().catch(queueUnavailable);
  const { job, done } = await startReplay(db, auth, body, (projectId, replayId) => background.enqueueReplay(projectId, replayId));
  await done.catch(queueUnavailable); // not queued: the job reads as failed
  return json(job.status === "running" ? 202 : 200, job);
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

/** GET /api/v1/replay/:id — progress, and the result once done. */
export const replayJobRoute = loaderRoute(replayJobLoader);

/** POST /api/v1/replay/:id/cancel */
export const cancelReplayRoute = apiRoute<IdParams>(async ({ params, db, auth }) => cancelReplayJob(db, auth.projectId, jobIdOf(params)));

/** GET /api/v1/replay/:id/runs/:runId/turns/:turn — one turn, the run's own decision next to the what-if. */
export const replayTurnRoute = loaderRoute(replayTurnLoader);

/** GET /api/v1/replay — the project's most recent replays. */
export const replayListRoute = loaderRoute(replayListLoader);

/** GET /api/v1/replay/matching — how many runs and turns a replay with these filters would rebuild. */
export const replayMatchingRoute = loaderRoute(replayMatchingLoader);
