import "server-only";
import { runsApi } from "@/lib/endpoints/runs";
import { listRuns } from "@/lib/server/runs/list-runs";
import { getRunFacets } from "@/lib/server/runs/run-facets";
import { getRunSummary, getTurnDetail } from "@/lib/server/runs/run-reads";
import { getRunTimeline } from "@/lib/server/runs/run-timeline";
import { getRunTriage } from "@/lib/server/runs/run-triage";
import { searchRun } from "@/lib/server/search/run-search";
import { defineLoader } from "./define-loader";

/** One page of the runs list (sort and limit default in ZRunListQuery). */
export const runListLoader = defineLoader(runsApi.list, (db, projectId, { query }) => listRuns(db, projectId, query));

/** The agents, models and statuses the list can be filtered by. */
export const runFacetsLoader = defineLoader(runsApi.facets, (db, projectId) => getRunFacets(db, projectId));

export const runSummaryLoader = defineLoader(runsApi.summary, (db, projectId, { path }) => getRunSummary(db, projectId, path.runId));

export const turnDetailLoader = defineLoader(runsApi.turn, (db, projectId, { path }) =>
  getTurnDetail(db, projectId, path.runId, path.turn),
);

/** The whole run, or a window of turns. */
export const runTimelineLoader = defineLoader(runsApi.timeline, (db, projectId, { path, query }) =>
  getRunTimeline(db, projectId, path.runId, query),
);

/** The previous and next dropped reminder, finding and failed delivery. */
export const runTriageLoader = defineLoader(runsApi.triage, (db, projectId, { path, query }) =>
  getRunTriage(db, projectId, path.runId, query.turn),
);

/** The turns matching a search inside the run (docs/search.md). */
export const runSearchLoader = defineLoader(runsApi.search, (db, projectId, { path, query }) =>
  searchRun(db, projectId, path.runId, query),
);
