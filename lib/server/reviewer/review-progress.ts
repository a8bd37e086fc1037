import "server-only";
import type { TReviewProgress, TReviewProgressQuery } from "@/lib/contracts";
import type { Viewer } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { CANDIDATE_REVIEW_JOIN } from "@/lib/server/reviews/review-row";
import { candidateConditions } from "./list-candidates";

/**
 * `GET /api/v1/reviewer/progress`: how many of the candidates over the filters have a verdict, by
 * verdict, and how many without one are assigned to the signed-in person. One count over the
 * selected candidates (the queue's partial index with `queue=1`).
 */
export async function reviewProgress(
  db: Database,
  projectId: string,
  query: TReviewProgressQuery,
  viewer: Viewer,
): Promise<TReviewProgress> {
  const me = viewer.personId ?? null;
  const [row] = await db.prisma.$queryRaw<
    { total: number; reviewed: number; justified: number; unnecessary: number; shouldDispatch: number; mine: number }[]
  >`
    SELECT count(*)::int AS "total",
           count(rv."verdict")::int AS "reviewed",
           count(*) FILTER (WHERE rv."verdict" = 'justified')::int AS "justified",
           count(*) FILTER (WHERE rv."verdict" = 'unnecessary')::int AS "unnecessary",
           count(*) FILTER (WHERE rv."verdict" = 'should_dispatch')::int AS "shouldDispatch",
           count(*) FILTER (WHERE rv."verdict" IS NULL AND rv."assignee_person_id" = ${me})::int AS "mine"
      FROM "runs" r
      JOIN "reviewer_rows" rr ON rr."project_id" = r."project_id" AND rr."run_pk" = r."id"
      ${CANDIDATE_REVIEW_JOIN}
     WHERE ${candidateConditions(projectId, query, viewer, { reviewJoined: true })}`;
  return {
    total: row.total,
    reviewed: row.reviewed,
    verdicts: { justified: row.justified, unnecessary: row.unnecessary, should_dispatch: row.shouldDispatch },
    assignedToYou: row.mine,
  };
}
