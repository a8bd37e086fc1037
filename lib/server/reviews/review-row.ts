import { REVIEW_VERDICTS, type TReview, type TReviewVerdict } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";

/**
 * A review as the reads select it (`rv` is the reviews row, `ap` the assignee's people row: see
 * REVIEWS_WITH_ASSIGNEE): the columns, and the API's review made from them.
 */
export const REVIEW_COLUMNS = Prisma.sql`
  rv."review_key" AS "rvKey", rv."turn" AS "rvTurn", rv."verdict" AS "rvVerdict", rv."comment" AS "rvComment",
  rv."rule_findings" AS "rvFindings", rv."dispatched" AS "rvDispatched", rv."reviewed_at" AS "rvReviewedAt",
  rv."reviewer_person_id" AS "rvReviewerId", rv."reviewer_name" AS "rvReviewerName",
  rv."assignee_person_id" AS "rvAssigneeId", ap."name" AS "rvAssigneeName", rv."assigned_at" AS "rvAssignedAt",
  rv."version" AS "rvVersion", rv."updated_at" AS "rvUpdatedAt"`;

/**
 * The reviews with their assignee's name, as one FROM item: what REVIEW_COLUMNS reads from. The
 * assignee is LEFT JOINed, so every review is there, assigned or not; wrap it in parentheses to
 * LEFT JOIN it to the candidates (a candidate without a review keeps its row, with nulls).
 */
export const REVIEWS_WITH_ASSIGNEE = Prisma.sql`"reviews" rv LEFT JOIN "people" ap ON ap."id" = rv."assignee_person_id"`;

/**
 * Each reviewer_rows row's (`rr`) review, if it has one (`rv`), for reads that count reviews rather
 * than show them: without the assignee's name, so not enough for REVIEW_COLUMNS.
 */
export const CANDIDATE_REVIEW_JOIN = Prisma.sql`
  LEFT JOIN "reviews" rv ON rv."project_id" = rr."project_id" AND rv."run_pk" = rr."run_pk" AND rv."review_key" = rr."review_key"`;

export interface ReviewColumns {
  rvKey: string | null;
  rvTurn: number | null;
  rvVerdict: string | null;
  rvComment: string | null;
  rvFindings: string[] | null;
  rvDispatched: boolean | null;
  rvReviewedAt: Date | string | null;
  rvReviewerId: string | null;
  rvReviewerName: string | null;
  rvAssigneeId: string | null;
  rvAssigneeName: string | null;
  rvAssignedAt: Date | string | null;
  rvVersion: number | null;
  rvUpdatedAt: Date | string | null;
}

/** The review in `row`, or null when the candidate has none. A person no longer on the server shows as "(removed)". */
export function reviewOf(runId: string, row: ReviewColumns): TReview | null {
  if (row.rvKey === null) return null;
  return {
    runId,
    reviewKey: row.rvKey,
    turn: row.rvTurn ?? 0,
    verdict: verdictOf(row.rvVerdict),
    comment: row.rvComment,
    reviewer: row.rvReviewerName === null ? null : { personId: row.rvReviewerId, name: row.rvReviewerName },
    reviewedAt: isoOf(row.rvReviewedAt),
    ruleFindings: row.rvFindings ?? [],
    dispatched: row.rvDispatched ?? false,
    assignee: row.rvAssigneeId === null ? null : { personId: row.rvAssigneeId, name: row.rvAssigneeName ?? "(removed)" },
    assignedAt: isoOf(row.rvAssignedAt),
    version: row.rvVersion ?? 0,
    updatedAt: isoOf(row.rvUpdatedAt) ?? new Date(0).toISOString(),
  };
}

function verdictOf(value: string | null): TReviewVerdict | null {
  return value !== null && (REVIEW_VERDICTS as readonly string[]).includes(value) ? (value as TReviewVerdict) : null;
}

/** A timestamp a raw query read (a Date, or text), as the API writes instants; null stays null. */
export function isoOf(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** The 404 of a run without a Reviewer candidate of that key. */
export function noSuchCandidate(runId: string, reviewKey: string): DomainError {
  return new DomainError(
    "not_found",
    `run ${JSON.stringify(runId)} has no Reviewer candidate ${JSON.stringify(reviewKey)} (a run's candidates are known once it is rebuilt)`,
    "reviewKey",
  );
}

/** A candidate's review before anything was said of it (version 0). */
export function emptyReview(runId: string, reviewKey: string, turn: number): TReview {
  return {
    runId,
    reviewKey,
    turn,
    verdict: null,
    comment: null,
    reviewer: null,
    reviewedAt: null,
    ruleFindings: [],
    dispatched: false,
    assignee: null,
    assignedAt: null,
    version: 0,
    updatedAt: new Date(0).toISOString(),
  };
}

/**
 * The reviews of a page of candidates, by `<run_pk> <review_key>`: one lookup on the reviews' primary
 * key for the page (the page itself is read without them, in its index's order).
 */
export async function reviewsOfPage(
  db: Database,
  projectId: string,
  page: readonly { runPk: string; runId: string; reviewKey: string }[],
): Promise<Map<string, TReview>> {
  const found = new Map<string, TReview>();
  if (page.length === 0) return found;
  const rows = await db.prisma.$queryRaw<(ReviewColumns & { runPk: string })[]>`
    SELECT rv."run_pk" AS "runPk", ${REVIEW_COLUMNS}
      FROM unnest(${page.map((row) => row.runPk)}::text[], ${page.map((row) => row.reviewKey)}::text[]) AS k("run_pk", "review_key")
      JOIN (${REVIEWS_WITH_ASSIGNEE}) ON rv."project_id" = ${projectId} AND rv."run_pk" = k."run_pk" AND rv."review_key" = k."review_key"`;
  const runIds = new Map(page.map((row) => [row.runPk, row.runId]));
  for (const row of rows) found.set(`${row.runPk} ${row.rvKey}`, reviewOf(runIds.get(row.runPk)!, row)!);
  return found;
}
