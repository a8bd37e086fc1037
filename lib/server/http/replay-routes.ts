import "server-only";
import { ZIdPathParams, ZReplayRequest } from "@/lib/contracts";
import { replayJobLoader, replayTurnLoader } from "@/lib/server/loaders/replay";
import { getBackground } from "@/lib/server/jobs/background";
import { cancelReplayJob, startReplay } from "@/lib/server/replay/replay-jobs";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { loaderRoute } from "./loader-route";
import { parseWith, readJsonBody } from "./request";

type IdParams = { id: string };

/** A replay job's id from the path, checked like any other parameter. */
function jobIdOf(params: IdParams): string {
  return parseWith(ZIdPathParams, { id: params.id }, "path").id;
}

/** POST /api/v1/replay — 202 with the job (poll it), or 200 with a finished job of the same inputs. */
export const startReplayRoute = apiRoute(async ({ request, db, auth }) => {
  const body = parseWith(ZReplayRequest, await readJsonBody(request, 64 * 1024), "body");
  const { queue } = await getBackground();
  const { job, done } = await startReplay(db, auth, body, (projectId, replayId) => queue.enqueueReplay(projectId, replayId));
  await done; // queued (a queue that cannot be reached is a 503, and the job reads as failed)
  return json(job.status === "running" ? 202 : 200, job);
});

/** GET /api/v1/replay/:id — progress, and the result once done. */
export const replayJobRoute = loaderRoute(replayJobLoader);

/** POST /api/v1/replay/:id/cancel */
export const cancelReplayRoute = apiRoute<IdParams>(async ({ params, db, auth }) => cancelReplayJob(db, auth.projectId, jobIdOf(params)));

/** GET /api/v1/replay/:id/runs/:runId/turns/:turn — one turn, the run's own decision next to the what-if. */
export const replayTurnRoute = loaderRoute(replayTurnLoader);
