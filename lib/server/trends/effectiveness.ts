import type { TEffectivenessResponse, TRunEffectivenessResponse, TTrendsQuery } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { findRun } from "@/lib/server/runs/find-run";
import { effectivenessDays, effectRows, fatigueRows, type DayCount } from "@/lib/experiments/effectiveness";
import { runSummaryColumn } from "@/lib/server/db/json-columns";
import { RUN_EFFECT_KEYS } from "@/lib/trends/effect-keys";
import { windowDays, windowEffectCounts, windowOf, zoned, type TrendFilters, type TrendWindow } from "./trends";

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
    experiment: query.experiment,
    arm: query.arm,
    keys: { like: [...RUN_EFFECT_KEYS] },
  };
  const days = await zoned(() => windowDays(db, window));
  const counts = await zoned(() => windowEffectCounts(db, projectId, window, filters, days));
  const totals: DayCount[] = counts.totals.map(({ key, n }) => ({ day: "", key, n }));
  return {
    tz,
    from,
    to,
    rows: effectRows(totals),
    fatigue: fatigueRows(totals),
    days: effectivenessDays(
      days.map((d) => d.day),
      counts.days,
    ),
  };
}

/**
 * GET /api/v1/runs/:runId/effectiveness: the effect and fatigue counts of the run's stored trend
 * buckets (one per 15-minute span of its turns, written by its last rebuild), summed: the sums its
 * rebuild stored with its summary (a 50,000-turn run has about 1,100 buckets; summing them on each
 * read made its page grow with the run), else, for a rebuild stored before those, the buckets summed.
 */
export async function getRunEffectiveness(db: Database, projectId: string, runId: string): Promise<TRunEffectivenessResponse> {
  const run = await findRun(db, projectId, runId);
  const rebuilt = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId, runPk: run.id } },
    select: { runPk: true, eventCount: true, error: true, summary: true },
  });
  // The sums the rebuild stored with the run's summary: one row whatever the run's length.
  const stored = rebuilt?.summary ? runSummaryColumn(rebuilt).effectCounts : undefined;
  const counts = stored ? Object.entries(stored).map(([key, n]) => ({ key, n })) : await summedBuckets(db, projectId, run.id);
  const summed: DayCount[] = counts.map(({ key, n }) => ({ day: "", key, n }));
  return {
    runId,
    rebuiltEvents: rebuilt && rebuilt.error === null ? rebuilt.eventCount : null,
    eventCount: run.eventCount,
    rows: effectRows(summed),
    fatigue: fatigueRows(summed),
  };
}

/** A rebuild stored before the sums were: its trend buckets summed (one row per 15-minute bucket of its turns, key by key). */
function summedBuckets(db: Database, projectId: string, runPk: string): Promise<{ key: string; n: number }[]> {
  return db.prisma.$queryRawUnsafe<{ key: string; n: number }[]>(
    `SELECT c."key", sum(c."value"::bigint)::float8 AS "n"
       FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
      WHERE b."project_id" = $1 AND b."run_pk" = $2 AND c."key" LIKE ANY($3::text[])
      GROUP BY 1`,
    projectId,
    runPk,
    [...RUN_EFFECT_KEYS],
  );
}
