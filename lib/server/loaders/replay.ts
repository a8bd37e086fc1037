import "server-only";
import { ZIdPathParams, ZRunPathParams, ZTurnParams } from "@/lib/contracts";
import { getReplayJob } from "@/lib/server/replay/replay-jobs";
import { getReplayTurn } from "@/lib/server/replay/replay-turn";
import { defineLoader } from "./define-loader";

/** GET /api/v1/replay/:id: a replay's progress, and its result once done. */
export const replayJobLoader = defineLoader({
  path: ZIdPathParams,
  load: (db, projectId, { path }) => getReplayJob(db, projectId, path.id),
});

/** GET /api/v1/replay/:id/runs/:runId/turns/:turn: one turn, the run's own decision next to the what-if. */
export const replayTurnLoader = defineLoader({
  path: ZIdPathParams.extend(ZRunPathParams.shape).extend(ZTurnParams.shape),
  load: (db, projectId, { path }) => getReplayTurn(db, projectId, path.id, path.runId, path.turn),
});
