import "server-only";
import type { TReviewerFunnelQuery, TReviewerFunnel } from "@/lib/contracts";
import { funnelFromCounts } from "@/lib/derived/reviewer/audit";
import type { Database } from "@/lib/server/db";
import { Prisma } from "@/lib/server/db/generated/client";
import { runFilterSql } from "@/lib/server/runs/run-filter-sql";

/**
 * The Reviewer funnel over every candidate that matches the filters (all pages): one SQL aggregate
 * over the filtered runs' stored funnel counts (run_reviewer_funnels), key by key. The funnel is a
 * sum over rows, so the sum of the runs' counts is the funnel of all their rows (lib/derived/reviewer/audit.ts).
 * With a `code`, the funnel is that of the runs with at least one finding of that code.
 */
export async function getReviewerFunnel(
  db: Database,
  projectId: string,
  query: Omit<TReviewerFunnelQuery, "cursor" | "limit">,
): Promise<TReviewerFunnel> {
  const column = query.violations ? Prisma.raw(`f."violation_counts"`) : Prisma.raw(`f."counts"`);
  const sums = await db.prisma.$queryRaw<{ key: string; n: number }[]>`
    SELECT e."key", SUM(e."value"::bigint)::float8 AS "n"
      FROM "runs" r
      JOIN "run_reviewer_funnels" f ON f."project_id" = r."project_id" AND f."run_pk" = r."id"
     CROSS JOIN LATERAL jsonb_each_text(${column}) AS e("key", "value")
     WHERE ${runFilterSql(projectId, { ...query, finding: query.code }, { startedOnly: true })}
     GROUP BY e."key"
     ORDER BY e."key"`;
  return funnelFromCounts(sums.map(({ key, n }) => [key, Number(n)] as const));
}
