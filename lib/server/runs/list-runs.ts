import "server-only";
import { MAX_INT4, type TRunListQuery, type TRunListResponse, type TRunSort } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";
import { getRunSummaries } from "./run-decisions";
import { toRunListItem } from "./run-dto";
import { runFilterWhere } from "./run-filters";

interface Cursor {
  /** The sort column's value of the last row: an ISO instant, a count, or a drop rate. */
  v: string | number | null;
  id: string;
}

type SortColumn = "startedAt" | "maxTurn" | "findingCount" | "droppedCount" | "dropRate";
type SortKind = "instant" | "count" | "rate";

/** Each sort's column on `runs` and the kind of value its cursor holds (each has an index, both directions). */
const SORT_COLUMNS: Record<string, { column: SortColumn; kind: SortKind }> = {
  started: { column: "startedAt", kind: "instant" },
  turns: { column: "maxTurn", kind: "count" },
  findings: { column: "findingCount", kind: "count" },
  dropped: { column: "droppedCount", kind: "count" },
  dropRate: { column: "dropRate", kind: "rate" },
};

function sortColumn(sort: TRunSort): { column: SortColumn; kind: SortKind; direction: Prisma.SortOrder } {
  const name = sort.replace(/^-/, "");
  return { ...SORT_COLUMNS[name], direction: sort.startsWith("-") ? "desc" : "asc" };
}

/** A project's runs, filtered and sorted as the URL says, in pages with an opaque keyset cursor. */
export async function listRuns(db: Database, projectId: string, query: TRunListQuery): Promise<TRunListResponse> {
  const where = runFilterWhere(projectId, query);

  const { column, kind, direction } = sortColumn(query.sort);
  const orderBy: Prisma.RunOrderByWithRelationInput[] = [{ [column]: { sort: direction, nulls: "last" } }, { id: direction }];

  const cursorWhere = query.cursor ? afterCursor(decodeCursor(query.cursor, kind), column, direction, kind) : undefined;
  const rows = await db.prisma.run.findMany({
    where: cursorWhere ? { AND: [where, cursorWhere] } : where,
    orderBy,
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const summaries = await getRunSummaries(db, projectId, page);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? encodeCursor({
          v: kind === "instant" ? (last.startedAt?.toISOString() ?? null) : last[column as Exclude<SortColumn, "startedAt">],
          id: last.id,
        })
      : null;
  return { runs: page.map((run) => toRunListItem(run, summaries.get(run.id)!)), nextCursor };
}

function afterCursor(cursor: Cursor, column: SortColumn, direction: Prisma.SortOrder, kind: SortKind): Prisma.RunWhereInput {
  const further = direction === "desc" ? "lt" : "gt";
  if (cursor.v === null) {
    // Rows without a value sort last: only those with a further id remain.
    return { [column]: null, id: { [further]: cursor.id } };
  }
  const value = kind === "instant" ? new Date(String(cursor.v)) : Number(cursor.v);
  return {
    OR: [{ [column]: { [further]: value } }, { [column]: value, id: { [further]: cursor.id } }, { [column]: null }],
  };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/**
 * A cursor this API gave out for this sort, or a 400: its content came from the client and goes
 * into a query, so every field is checked (an instant for a date sort, a count for a count's, a
 * fraction for the drop rate's).
 */
function decodeCursor(text: string, kind: SortKind): Cursor {
  let cursor: Partial<Cursor> | null = null;
  try {
    cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<Cursor> | null;
  } catch {
    // not JSON: below
  }
  if (cursor && typeof cursor === "object" && isRowId(cursor.id) && isSortValue(cursor.v, kind)) return cursor as Cursor;
  throw new DomainError(
    "invalid",
    "query.cursor: not a cursor this API gave out for this sort: use the nextCursor of the previous page",
    "cursor",
  );
}

/** A run's primary key as the database gave it out (a cuid): no NUL, not huge. */
function isRowId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 128 && !value.includes("\u0000");
}

function isSortValue(value: unknown, kind: SortKind): boolean {
  if (value === null) return true;
  if (kind === "count") return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_INT4;
  if (kind === "rate") return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
  return (
    typeof value === "string" &&
    value >= "0001" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}
