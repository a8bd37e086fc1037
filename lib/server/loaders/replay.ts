import "server-only";
import { ZIdPathParams, ZReplayMatchingQuery, ZRunPathParams, ZTurnParams } from "@/lib/contracts";
import { countMatchingRuns, getReplayJob, listReplays } from "@/lib/server/replay/replay-jobs";
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

/** GET /api/v1/replay: the project's most recent replays (without their results). */
export const replayListLoader = defineLoader({
  load: (db, projectId) => listReplays(db, projectId),
});

/** GET /api/v1/replay/matching: the runs and turns a replay with these filters would rebuild, counted from stored counts. */
export const replayMatchingLoader = defineLoader({
  query: ZReplayMatchingQuery,
  load: (db, projectId, { query }) => countMatchingRuns(db, projectId, query),
});
