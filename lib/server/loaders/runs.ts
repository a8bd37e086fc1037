import "server-only";
import { ZRunListQuery, ZRunPathParams, ZTimelineQuery, ZTriageQuery, ZTurnParams } from "@/lib/contracts";
import { listRuns } from "@/lib/server/runs/list-runs";
import { getRunFacets } from "@/lib/server/runs/run-facets";
import { getRunSummary, getTurnDetail } from "@/lib/server/runs/run-reads";
import { getRunTimeline } from "@/lib/server/runs/run-timeline";
import { getRunTriage } from "@/lib/server/runs/run-triage";
import { defineLoader } from "./define-loader";

/** GET /api/v1/runs: one page of the runs list (sort and limit default in ZRunListQuery). */
export const runListLoader = defineLoader({
  query: ZRunListQuery,
  load: (db, projectId, { query }) => listRuns(db, projectId, query),
});

/** GET /api/v1/facets: the agents, models and statuses the list can be filtered by. */
export const runFacetsLoader = defineLoader({
  load: (db, projectId) => getRunFacets(db, projectId),
});

/** GET /api/v1/runs/:runId */
export const runSummaryLoader = defineLoader({
  path: ZRunPathParams,
  load: (db, projectId, { path }) => getRunSummary(db, projectId, path.runId),
});

/** GET /api/v1/runs/:runId/turns/:turn */
export const turnDetailLoader = defineLoader({
  path: ZRunPathParams.extend(ZTurnParams.shape),
  load: (db, projectId, { path }) => getTurnDetail(db, projectId, path.runId, path.turn),
});

/** GET /api/v1/runs/:runId/timeline: the whole run, or a window of turns. */
export const runTimelineLoader = defineLoader({
  path: ZRunPathParams,
  query: ZTimelineQuery,
  load: (db, projectId, { path, query }) => getRunTimeline(db, projectId, path.runId, query),
});

/** GET /api/v1/runs/:runId/triage: the previous and next dropped reminder, finding and failed delivery. */
export const runTriageLoader = defineLoader({
  path: ZRunPathParams,
  query: ZTriageQuery,
  load: (db, projectId, { path, query }) => getRunTriage(db, projectId, path.runId, query.turn),
});
