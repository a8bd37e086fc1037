import "server-only";
import { MAX_INT4, type TReviewerCandidatesQuery, type TReviewerCandidatesResponse, type TReviewerSort } from "@/lib/contracts";
import type { Viewer } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { Prisma } from "@/lib/server/db/generated/client";
import { reviewerRowColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { isoOf, reviewsOfPage } from "@/lib/server/reviews/review-row";
import { reviewQueueSql } from "@/lib/server/reviews/queue-filter";
import { runFilterSql } from "@/lib/server/runs/run-filter-sql";

/**
 * Where a page ends, in the order it was read in (`o`): the last row's run (its started_at as an ISO
 * instant, and its key) and place in the run; in the "most violations" order also the row's finding
 * count (`c`) and its run's start as stored on the row (`m`, epoch ms as digits).
 */
type Cursor =
  { o: "newest" | "oldest"; s: string | null; r: string; n: number } | { o: "violations"; c: number; m: string; r: string; n: number };

interface PageRow {
  runPk: string;
  runId: string;
  task: string | null;
  agent: string | null;
  model: string | null;
  startedAt: Date | string | null;
  ordinal: number;
  violationCount: number;
  runStartedMs: string;
  row: string;
  reviewKey: string;
}

/**
 * `GET /api/v1/reviewer/candidates`: Reviewer candidates across the project's runs, each with the
 * rule's verdict and its violations, in the query's order: newest run first (the default) or oldest,
 * by turn within a run; or the most Reviewer findings first, then newest run, then turn. Read from
 * the Reviewer rows the rebuild stored (lib/server/reviewer/store-audit.ts), joined to the filtered
 * runs, in keyset pages along an index of that order: one query a page, whatever the page's
 * position. A run not rebuilt yet has no rows here. Each row comes with its review, if it has one,
 * and the review queue's filters (lib/server/reviews/queue-filter.ts) narrow the rows.
 */
export async function listReviewerCandidates(
  db: Database,
  projectId: string,
  query: TReviewerCandidatesQuery,
  viewer: Viewer = {},
): Promise<TReviewerCandidatesResponse> {
  const sort = query.sort ?? "newest";
  const cursor = query.cursor ? decodeCursor(query.cursor, sort) : undefined;
  const rows = await db.prisma.$queryRaw<PageRow[]>`
    SELECT r."id" AS "runPk", r."run_id" AS "runId", r."task", r."agent", r."model", r."started_at" AS "startedAt",
           rr."ordinal", rr."violation_count" AS "violationCount", rr."run_started_ms"::text AS "runStartedMs", rr."row",
           rr."review_key" AS "reviewKey"
      FROM "runs" r
      JOIN "reviewer_rows" rr ON rr."project_id" = r."project_id" AND rr."run_pk" = r."id"
     WHERE ${candidateConditions(projectId, query, viewer)}
       ${cursor ? after(cursor) : Prisma.empty}
     ORDER BY ${ORDER[sort]}
     LIMIT ${query.limit + 1}::int`;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const reviews = await reviewsOfPage(db, projectId, page);
  return {
    rows: page.map((row) => ({
      runId: row.runId,
      task: row.task,
      agent: row.agent,
      model: row.model,
      ...reviewerRowColumn(row),
      reviewKey: row.reviewKey,
      review: reviews.get(`${row.runPk} ${row.reviewKey}`) ?? null,
    })),
    nextCursor: rows.length > query.limit && last ? encodeCursor(cursorAt(sort, last)) : null,
  };
}

/**
 * Which candidates a query selects, over runs `r`, reviewer_rows `rr` and reviews `rv`: the runs'
 * filters, violations only or one finding code, and the review queue's filters (`reviewJoined`: the
 * query joins each candidate's review as `rv`, CANDIDATE_REVIEW_JOIN).
 */
export function candidateConditions(
  projectId: string,
  query: Omit<TReviewerCandidatesQuery, "limit" | "sort">,
  viewer: Viewer,
  options: { reviewJoined?: boolean } = {},
): Prisma.Sql {
  return Prisma.sql`${runFilterSql(projectId, { ...query, finding: query.code }, { startedOnly: true })}
    ${query.violations || query.code ? Prisma.sql`AND rr."has_violations"` : Prisma.empty}
    ${query.code ? Prisma.sql`AND (rr."row"::jsonb -> 'findings') @> jsonb_build_array(${query.code}::text)` : Prisma.empty}
    ${reviewQueueSql(query, viewer, options)}`;
}

/**
 * The orders. `newest` reads the runs' ascending started_at index backwards (which puts runs without
 * a start first); `oldest` reads it forwards (them last); `violations` reads reviewer_rows_by_violations_idx.
 */
const ORDER: Record<TReviewerSort, Prisma.Sql> = {
  newest: Prisma.sql`r."started_at" DESC, r."id" DESC, rr."ordinal"`,
  oldest: Prisma.sql`r."started_at" ASC, r."id" ASC, rr."ordinal"`,
  violations: Prisma.sql`rr."violation_count" DESC, rr."run_started_ms" DESC, rr."run_pk" DESC, rr."ordinal"`,
};

function cursorAt(sort: TReviewerSort, row: PageRow): Cursor {
  return sort === "violations"
    ? { o: sort, c: row.violationCount, m: row.runStartedMs, r: row.runPk, n: row.ordinal }
    : { o: sort, s: isoOf(row.startedAt), r: row.runPk, n: row.ordinal };
}

/**
 * The rows after the cursor's in its order; within one run, the rows after its place. Each bound is
 * one row comparison the order's index can seek to (an OR around it would make every page read the
 * index from its start). A run in the audit always has a start (its task comes with run.started, with
 * the start), so the branches for a cursor without one are for completeness only.
 */
function after(cursor: Cursor): Prisma.Sql {
  const sameRunLater = Prisma.sql`(r."id" = ${cursor.r} AND rr."ordinal" > ${cursor.n}::int)`;
  switch (cursor.o) {
    case "newest":
      if (cursor.s === null) return Prisma.sql`AND (r."started_at" IS NOT NULL OR r."id" < ${cursor.r} OR ${sameRunLater})`;
      return Prisma.sql`AND (r."started_at", r."id") <= (${cursor.s}::timestamptz, ${cursor.r})
                        AND (r."id" <> ${cursor.r} OR rr."ordinal" > ${cursor.n}::int)`;
    case "oldest":
      if (cursor.s === null) return Prisma.sql`AND r."started_at" IS NULL AND (r."id" > ${cursor.r} OR ${sameRunLater})`;
      return Prisma.sql`AND (r."started_at", r."id") >= (${cursor.s}::timestamptz, ${cursor.r})
                        AND (r."id" <> ${cursor.r} OR rr."ordinal" > ${cursor.n}::int)`;
    case "violations": {
      // A run's rows differ in their counts, so a row's place is its whole key, not its run alone.
      const key = Prisma.sql`(${cursor.c}::int, ${cursor.m}::bigint, ${cursor.r})`;
      return Prisma.sql`AND (rr."violation_count", rr."run_started_ms", rr."run_pk") <= ${key}
                        AND ((rr."violation_count", rr."run_started_ms", rr."run_pk") <> ${key} OR rr."ordinal" > ${cursor.n}::int)`;
    }
  }
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/**
 * A cursor this API gave out for this order, or a 400 naming `cursor`: its content came from the
 * client and goes into a query, so every field is checked (the order, an instant or null, a run
 * key, a row's place, a count and epoch milliseconds as digits).
 */
function decodeCursor(text: string, sort: TReviewerSort): Cursor {
  let cursor: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (parsed && typeof parsed === "object") cursor = parsed as Record<string, unknown>;
  } catch {
    // not JSON: answered below
  }
  if (cursor && cursor.o === sort && isRunKey(cursor.r) && isInt4(cursor.n)) {
    const { r, n } = cursor;
    if (sort !== "violations" && isInstant(cursor.s)) return { o: sort, s: cursor.s, r, n };
    if (sort === "violations" && isInt4(cursor.c) && isBigint(cursor.m)) {
      return { o: sort, c: cursor.c, m: cursor.m, r, n };
    }
  }
  throw new DomainError(
    "invalid",
    `query.cursor: not a cursor this API gave out for sort=${sort}: use the nextCursor of the previous page`,
    "cursor",
  );
}

function isRunKey(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 128 && !value.includes("\u0000");
}

/** Epoch milliseconds as the API wrote them: digits within PostgreSQL's bigint. */
function isBigint(value: unknown): value is string {
  if (typeof value !== "string" || !/^-?\d{1,19}$/.test(value)) return false;
  const n = BigInt(value);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n;
}

function isInt4(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= MAX_INT4;
}

/** A run's started_at as this API writes it in a cursor (years 0001–9999, milliseconds, UTC), or null. */
function isInstant(value: unknown): value is string | null {
  if (value === null) return true;
  if (typeof value !== "string" || value < "0001" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return false;
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === value; // a real instant, written as toISOString writes it
}
