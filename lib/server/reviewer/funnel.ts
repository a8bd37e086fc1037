import "server-only";
import type { TReviewerCandidateRow, TReviewerCandidatesQuery, TReviewerFunnel } from "@/lib/contracts";
import { reviewerFunnel } from "@/lib/reviewer/funnel";
import type { Database } from "@/lib/server/db";
import { listReviewerCandidates } from "./list-candidates";

/** The Reviewer funnel over every candidate that matches the filters (all pages). */
export async function getReviewerFunnel(db: Database, projectId: string, query: TReviewerCandidatesQuery): Promise<TReviewerFunnel> {
  const rows: TReviewerCandidateRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await listReviewerCandidates(db, projectId, { ...query, cursor, limit: 500 });
    rows.push(...page.rows);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return reviewerFunnel(rows);
}
