import "server-only";
import type { TReviewTrends, TReviewVerdict } from "@/lib/contracts";
import { reviewTrends } from "@/lib/reviews/weeks";
import type { Database } from "@/lib/server/db";
import { windowOf, zoned, type TrendWindow } from "@/lib/server/trends/trends";

/**
 * `GET /api/v1/trends/reviews`: the verdicts given in the window's days (in its zone), per week
 * (Mondays in the zone), beside what the rules said about the same candidates when each verdict was
 * given (the finding codes a review keeps). Reads the reviews given in the window only (their index
 * by project and time), never the runs' data.
 */
export async function getReviewTrends(
  db: Database,
  projectId: string,
  query: { tz: string; from?: string; to?: string },
): Promise<TReviewTrends> {
  const { from, to } = await windowOf(db, query);
  const window: TrendWindow = { tz: query.tz, from, to };
  const counts = await zoned(
    () =>
      db.prisma.$queryRaw<{ week: string; verdict: TReviewVerdict; flagged: boolean; n: number }[]>`
      SELECT to_char(date_trunc('week', rv."reviewed_at" AT TIME ZONE ${window.tz}), 'YYYY-MM-DD') AS "week",
             rv."verdict", cardinality(rv."rule_findings") > 0 AS "flagged", count(*)::int AS "n"
        FROM "reviews" rv
       WHERE rv."project_id" = ${projectId} AND rv."verdict" IS NOT NULL
         AND rv."reviewed_at" >= (${window.from}::date::timestamp AT TIME ZONE ${window.tz})
         AND rv."reviewed_at" < ((${window.to}::date + 1)::timestamp AT TIME ZONE ${window.tz})
       GROUP BY 1, 2, 3`,
  );
  return reviewTrends(window, counts);
}
