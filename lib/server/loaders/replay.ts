import "server-only";
import { replayApi } from "@/lib/endpoints/replay";
import { getBackground } from "@/lib/server/background/background";
import { countMatchingRuns, getReplayJob, listReplays } from "@/lib/server/replay/replay-jobs";
import { getReplayTurn } from "@/lib/server/replay/replay-turn";
import { defineLoader } from "./define-loader";

/** A replay's progress, and its result once done. */
export const replayJobLoader = defineLoader(replayApi.job, (db, projectId, { path }) => getReplayJob(db, projectId, path.id));

/** One turn, the run's own decision next to the what-if. */
export const replayTurnLoader = defineLoader(replayApi.turn, async (db, projectId, { path }) =>
  getReplayTurn(db, (await getBackground()).threads, projectId, path.id, path.runId, path.turn),
);

/** The project's most recent replays (without their results). */
export const replayListLoader = defineLoader(replayApi.list, (db, projectId) => listReplays(db, projectId));

/** The runs and turns a replay with these filters would rebuild, counted from stored counts. */
export const replayMatchingLoader = defineLoader(replayApi.matching, (db, projectId, { query }) => countMatchingRuns(db, projectId, query));
