import type { TRunDecisions, TRunTimeline, TTimelineQuery } from "../../contracts";
import { buildTimeline } from "../../charts";
import type { Database } from "../db";
import { DomainError } from "../errors";
import { findRun } from "./find-run";
import { getRunDecisions } from "./run-decisions";
import { loadRunEventsOfTypes, TIMELINE_EVENT_TYPES } from "./run-events";

/**
 * `GET /api/v1/runs/:runId/timeline`: what the run page draws — meter series in their units,
 * thresholds, reminder statuses, lanes and markers — trimmed and downsampled on the server, so a
 * long run's page does not download its whole decisions.
 */
export async function getRunTimeline(db: Database, projectId: string, runId: string, query: TTimelineQuery): Promise<TRunTimeline> {
  const run = await findRun(db, projectId, runId);
  const result = await getRunDecisions(db, run);
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  const decisions = JSON.parse(result.json) as TRunDecisions;
  const events = await loadRunEventsOfTypes(db, run, TIMELINE_EVENT_TYPES);
  return buildTimeline(decisions, events, { maxPoints: query.maxPoints, fromTurn: query.from, toTurn: query.to });
}
