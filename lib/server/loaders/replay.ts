import "server-only";
import { replayApi } from "@/lib/endpoints/replay";
import { getBackground } from "@/lib/server/background/background";
import { compareWithWhatIf, getWhatIfRun } from "@/lib/server/replay/replay-compare";
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

/** A replayed run (A) against its what-if (B), answered as the comparison of two runs. */
export const replayCompareLoader = defineLoader(replayApi.compare, async (db, projectId, { path, query }) =>
  compareWithWhatIf(db, (await getBackground()).threads, projectId, path.id, path.runId, query),
);

/** A replayed run's what-if as the comparison draws it: its timeline and counts. */
export const replayWhatIfRunLoader = defineLoader(replayApi.whatIfRun, async (db, projectId, { path }) =>
  getWhatIfRun(db, (await getBackground()).threads, projectId, path.id, path.runId),
);
