import type { TReviewVerdict } from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { reviewerRowColumn } from "@/lib/server/db/json-columns";
import { updateReview } from "@/lib/server/reviews/update-review";

/**
 * The demo's reviews (docs/reviews.md): verdicts on every second candidate of the review queue (in
 * run and turn order), so the queue has work left, its progress and the trends' verdicts have
 * something to show, and the run pages show verdicts. Each verdict follows what the rules said,
 * except every fifth one, so the agreement between people and the rules is not a flat 100%. Run
 * after the demo runs are rebuilt; a candidate that has a verdict already is left alone.
 */
export async function loadDemoReviews(db: Database, caller: Caller): Promise<number> {
  const rows = await db.prisma.$queryRaw<
    { runId: string; runPk: string; ordinal: number; reviewKey: string; row: string; reviewed: boolean }[]
  >`
    SELECT r."run_id" AS "runId", rr."run_pk" AS "runPk", rr."ordinal", rr."review_key" AS "reviewKey", rr."row",
           EXISTS (SELECT 1 FROM "reviews" rv WHERE rv."project_id" = rr."project_id" AND rv."run_pk" = rr."run_pk"
                      AND rv."review_key" = rr."review_key" AND rv."verdict" IS NOT NULL) AS "reviewed"
      FROM "reviewer_rows" rr JOIN "runs" r ON r."project_id" = rr."project_id" AND r."id" = rr."run_pk"
     WHERE rr."project_id" = ${caller.projectId} AND rr."in_queue"
     ORDER BY r."run_id", rr."ordinal"`;
  let given = 0;
  for (const [i, stored] of rows.entries()) {
    if (i % 2 === 1 || stored.reviewed) continue;
    const row = reviewerRowColumn(stored);
    const byRules: TReviewVerdict =
      row.source === "rebuilt" ? "should_dispatch" : row.findings.length > 0 && row.dispatches.length > 0 ? "unnecessary" : "justified";
    const verdict: TReviewVerdict = given % 5 === 4 ? (byRules === "justified" ? "unnecessary" : "justified") : byRules;
    await updateReview(db, caller, stored.runId, stored.reviewKey, {
      verdict,
      comment: verdict === byRules ? null : "Demo: a reviewer who disagrees with the rules here.",
    });
    given++;
  }
  return given;
}
