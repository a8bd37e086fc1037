import type { Database } from "@/lib/server/db";
import { TREND_VERSION } from "@/lib/trends/buckets";
import { DERIVED_VERSION } from "./derived-version";

/**
 * Runs whose stored rebuild is behind their events (or missing), or was stored by a rebuild that
 * derived less than this one does (an older DERIVED_VERSION: triage marks; trend buckets of another
 * TREND_VERSION, or none: runs rebuilt before trends), by project (or of one project): at most
 * `limit` of them, oldest change first. One pass over the runs table — runs, not events. A rebuild
 * that failed (no findings) is not swept again until its run gets new events.
 */
export async function staleRuns(db: Database, options: { projectId?: string; limit?: number } = {}): Promise<Map<string, string[]>> {
  const rows = await db.prisma.$queryRawUnsafe<{ projectId: string; id: string }[]>(
    `SELECT r."project_id" AS "projectId", r."id" FROM "runs" r
       LEFT JOIN "run_decisions" d ON d."project_id" = r."project_id" AND d."run_pk" = r."id"
      WHERE r."event_count" > 0
        AND (d."run_pk" IS NULL OR d."event_count" <> r."event_count"
             OR (d."findings" IS NOT NULL AND (d."derived_version" < $3 OR d."trend_version" IS DISTINCT FROM $4)))
        AND ($2::text IS NULL OR r."project_id" = $2)
      ORDER BY r."last_event_at" LIMIT $1`,
    options.limit ?? 10_000,
    options.projectId ?? null,
    DERIVED_VERSION,
    TREND_VERSION,
  );
  const byProject = new Map<string, string[]>();
  for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row.id]);
  return byProject;
}
