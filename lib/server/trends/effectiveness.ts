import type { TEffectivenessResponse, TTrendsQuery } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { effectivenessDays, effectRows, fatigueRows, type DayCount } from "@/lib/experiments/effectiveness";
import { EFFECT_KEYS, windowCounts, windowDays, windowOf, zoned, type TrendFilters, type TrendWindow } from "./trends";

/**
 * GET /api/v1/effectiveness: delivered vs dropped follow-up and reminder fatigue (contract §10) over
 * the window's days in `tz`, with the trends' filters. Read from the trend rollups the rebuild keeps
 * (its `effect.*` and `fatigue.*` count keys and the deliveries beside them), so the rows read follow the
 * window, the versions in it and the count keys, not how many runs are stored.
 */
export async function getEffectiveness(db: Database, projectId: string, query: TTrendsQuery): Promise<TEffectivenessResponse> {
  const { tz } = query;
  const { from, to } = await windowOf(db, query);
  const window: TrendWindow = { tz, from, to };
  const filters: TrendFilters = {
    agent: query.agent,
    model: query.model,
    copyVersion: query.copyVersion,
    policyVersion: query.policyVersion,
    keys: { like: [...EFFECT_KEYS, "reminders.%.delivered"] },
  };
  const days = await zoned(() => windowDays(db, window));
  const counts = await zoned(() => windowCounts(db, projectId, window, filters, days));
  const summed: DayCount[] = counts.map(({ day, key, n }) => ({ day, key, n }));
  return {
    tz,
    from,
    to,
    rows: effectRows(summed),
    fatigue: fatigueRows(summed),
    days: effectivenessDays(
      days.map((d) => d.day),
      summed,
    ),
  };
}
