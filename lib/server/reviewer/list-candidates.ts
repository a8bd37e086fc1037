import "server-only";
import { MAX_INT4, type TReviewerCandidatesQuery, type TReviewerCandidatesResponse } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { Prisma } from "@/lib/server/db/generated/client";
import { reviewerRowColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { runFilterSql } from "@/lib/server/runs/run-filter-sql";

/** Where a page ends: the last row's run (its started_at as an ISO instant, and its key) and place in the run. */
interface Cursor {
  s: string | null;
  r: string;
  n: number;
}

interface PageRow {
  runPk: string;
  runId: string;
  task: string | null;
  agent: string | null;
  model: string | null;
  startedAt: Date | string | null;
  ordinal: number;
  row: string;
}

/**
 * `GET /api/v1/reviewer/candidates`: Reviewer candidates across the project's runs, newest run
 * first and by turn within a run, each with the rule's verdict and its violations. Read from the
 * Reviewer rows the rebuild stored (lib/server/reviewer/store-audit.ts), joined to the filtered
 * runs, in keyset pages: one query a page, whatever the page's position. A run not rebuilt yet has
 * no rows here.
 */
export async function listReviewerCandidates(
  db: Database,
  projectId: string,
  query: TReviewerCandidatesQuery,
): Promise<TReviewerCandidatesResponse> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await db.prisma.$queryRaw<PageRow[]>`
    SELECT r."id" AS "runPk", r."run_id" AS "runId", r."task", r."agent", r."model", r."started_at" AS "startedAt",
           rr."ordinal", rr."row"
      FROM "runs" r
      JOIN "reviewer_rows" rr ON rr."project_id" = r."project_id" AND rr."run_pk" = r."id"
     WHERE ${runFilterSql(projectId, { ...query, finding: query.code }, { startedOnly: true })}
       ${query.violations || query.code ? Prisma.sql`AND rr."has_violations"` : Prisma.empty}
       ${query.code ? Prisma.sql`AND (rr."row"::jsonb -> 'findings') @> jsonb_build_array(${query.code}::text)` : Prisma.empty}
       ${cursor ? after(cursor) : Prisma.empty}
     ORDER BY r."started_at" DESC, r."id" DESC, rr."ordinal"
     LIMIT ${query.limit + 1}::int`;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    rows: page.map((row) => ({ runId: row.runId, task: row.task, agent: row.agent, model: row.model, ...reviewerRowColumn(row) })),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ s: isoOf(last.startedAt), r: last.runPk, n: last.ordinal }) : null,
  };
}

/**
 * The rows after the cursor's in the page order (started_at DESC, which puts runs without a start
 * first, then id DESC, then ordinal). From a run with a start, that is a row comparison the runs'
 * started_at index answers, read backwards.
 */
function after(cursor: Cursor): Prisma.Sql {
  if (cursor.s === null) {
    return Prisma.sql`AND (r."started_at" IS NOT NULL OR r."id" < ${cursor.r} OR (r."id" = ${cursor.r} AND rr."ordinal" > ${cursor.n}::int))`;
  }
  return Prisma.sql`AND (r."started_at", r."id") <= (${cursor.s}::timestamptz, ${cursor.r})
                    AND (r."id" <> ${cursor.r} OR rr."ordinal" > ${cursor.n}::int)`;
}

function isoOf(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/**
 * A cursor this API gave out, or a 400 naming `cursor`: its content came from the client and goes
 * into a query, so every field is checked (an instant or null, a run key, a row's place).
 */
function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<Cursor> | null;
    if (
      cursor &&
      typeof cursor === "object" &&
      isInstant(cursor.s) &&
      typeof cursor.r === "string" &&
      cursor.r.length > 0 &&
      cursor.r.length <= 128 &&
      !cursor.r.includes("\u0000") &&
      Number.isSafeInteger(cursor.n) &&
      cursor.n! >= 0 &&
      cursor.n! <= MAX_INT4
    ) {
      return { s: cursor.s, r: cursor.r, n: cursor.n! };
    }
  } catch {
    // fall through
  }
  throw new DomainError("invalid", "query.cursor: not a cursor this API gave out: use the nextCursor of the previous page", "cursor");
}

/** A run's started_at as this API writes it in a cursor (years 0001–9999, milliseconds, UTC), or null. */
function isInstant(value: unknown): value is string | null {
  if (value === null) return true;
  if (typeof value !== "string" || value < "0001" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return false;
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === value; // a real instant, written as toISOString writes it
}
