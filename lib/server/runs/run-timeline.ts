import "server-only";
import type { TRunTimeline, TTimelineQuery } from "@/lib/contracts";
import { buildTimeline } from "@/lib/charts";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { findRun } from "./find-run";
import { getParsedRunDecisions } from "./run-decisions";
import { loadRunEventsOfTypes, TIMELINE_EVENT_TYPES } from "./run-events";

/**
 * `GET /api/v1/runs/:runId/timeline`: what the run page draws — meter series in their units,
 * thresholds, reminder statuses, lanes and markers — trimmed and downsampled on the server, so a
 * long run's page does not download its whole decisions.
 */
export async function getRunTimeline(db: Database, projectId: string, runId: string, query: TTimelineQuery): Promise<TRunTimeline> {
  const run = await findRun(db, projectId, runId);
  const result = await getParsedRunDecisions(db, run);
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  // Built timelines are kept per run version (its event count and the stored rebuild's, which may
  // be behind it) and window: a live run's page polls the same window, and a long run's timeline
  // costs far more to build than to send.
  const key = `${run.id}:${run.eventCount}:${run.eventCount - result.staleEvents}:${query.from ?? ""}:${query.to ?? ""}:${query.maxPoints ?? ""}`;
  const built = recent.get(key);
  if (built) return built;
  const events = await loadRunEventsOfTypes(db, run, TIMELINE_EVENT_TYPES);
  const timeline = buildTimeline(result.decisions, events, { maxPoints: query.maxPoints, fromTurn: query.from, toTurn: query.to });
  recent.set(key, timeline);
  return timeline;
}

const recent = runCache<TRunTimeline>({ max: 16, sizeOf: (timeline) => jsonTextBytes(JSON.stringify(timeline).length) });
