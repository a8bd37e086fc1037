import "server-only";
import type { TReview, TRunReviews } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";
import { findRun } from "@/lib/server/runs/find-run";
import { emptyReview, noSuchCandidate, REVIEW_COLUMNS, reviewOf, REVIEWS_WITH_ASSIGNEE, type ReviewColumns } from "./review-row";

/**
 * `GET /api/v1/runs/{runId}/reviews`: the run's reviews that say something (a verdict or an
 * assignee), in turn order, in keyset pages of `limit`.
 */
export async function listRunReviews(
  db: Database,
  projectId: string,
  runId: string,
  query: { cursor?: string; limit: number },
): Promise<TRunReviews> {
  const run = await findRun(db, projectId, runId);
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db.prisma.$queryRaw<(ReviewColumns & { rvKey: string; rvTurn: number })[]>`
    SELECT ${REVIEW_COLUMNS}
      FROM ${REVIEWS_WITH_ASSIGNEE}
     WHERE rv."project_id" = ${projectId} AND rv."run_pk" = ${run.id}
       AND (rv."verdict" IS NOT NULL OR rv."assignee_person_id" IS NOT NULL)
       ${after ? Prisma.sql`AND (rv."turn", rv."review_key") > (${after.t}::int, ${after.k})` : Prisma.empty}
     ORDER BY rv."turn", rv."review_key"
     LIMIT ${query.limit + 1}::int`;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    reviews: page.map((row) => reviewOf(run.runId, row)!),
    nextCursor:
      rows.length > query.limit && last ? Buffer.from(JSON.stringify({ t: last.rvTurn, k: last.rvKey })).toString("base64url") : null,
  };
}

/**
 * `GET /api/v1/runs/{runId}/reviews/{reviewKey}`: one candidate's review as it stands, as the write
 * answers it: the empty review (version 0) while nothing was said of it. Another project's run, or a
 * key the run's Reviewer audit does not have, is not found. One lookup on the candidate's key, with
 * its review if it has one.
 */
export async function getReview(db: Database, projectId: string, runId: string, reviewKey: string): Promise<TReview> {
  const run = await findRun(db, projectId, runId);
  const [row] = await db.prisma.$queryRaw<(ReviewColumns & { candidateTurn: number })[]>`
    SELECT rr."turn" AS "candidateTurn", ${REVIEW_COLUMNS}
      FROM "reviewer_rows" rr
      LEFT JOIN (${REVIEWS_WITH_ASSIGNEE})
        ON rv."project_id" = rr."project_id" AND rv."run_pk" = rr."run_pk" AND rv."review_key" = rr."review_key"
     WHERE rr."project_id" = ${projectId} AND rr."run_pk" = ${run.id} AND rr."review_key" = ${reviewKey}
     ORDER BY rr."ordinal"
     LIMIT 1`;
  if (!row) throw noSuchCandidate(runId, reviewKey);
  return reviewOf(run.runId, row) ?? emptyReview(run.runId, reviewKey, row.candidateTurn);
}

function decodeCursor(text: string): { t: number; k: string } {
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as { t?: unknown; k?: unknown };
    if (Number.isSafeInteger(value.t) && typeof value.k === "string" && value.k.length <= 200) return { t: value.t as number, k: value.k };
  } catch {
    // answered below
  }
  throw new DomainError("invalid", "query.cursor: not a cursor this API gave out: use the nextCursor of the previous page", "cursor");
}
