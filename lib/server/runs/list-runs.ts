import type { TRunListQuery, TRunListResponse } from "../../contracts";
import type { Database } from "../db";
import type { Prisma } from "../db/generated/client";
import { DomainError } from "../errors";
import { getRunSummaries } from "./run-decisions";
import { toRunListItem } from "./run-dto";
import { runFilterWhere } from "./run-filters";

interface Cursor {
  /** The sort column's value of the last row: an ISO instant or a turn count. */
  v: string | number | null;
  id: string;
}

/** A project's runs, filtered and sorted as the URL says, in pages with an opaque keyset cursor. */
export async function listRuns(db: Database, projectId: string, query: TRunListQuery): Promise<TRunListResponse> {
  const where = runFilterWhere(projectId, query);

  const byTurns = query.sort.endsWith("turns");
  const direction: Prisma.SortOrder = query.sort.startsWith("-") ? "desc" : "asc";
  const column = byTurns ? "maxTurn" : "startedAt";
  const orderBy: Prisma.RunOrderByWithRelationInput[] = [
    { [column]: { sort: direction, nulls: "last" } },
    { id: direction },
  ];

  const cursorWhere = query.cursor ? afterCursor(decodeCursor(query.cursor), column, direction, byTurns) : undefined;
  const rows = await db.prisma.run.findMany({
    where: cursorWhere ? { AND: [where, cursorWhere] } : where,
    orderBy,
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const summaries = await getRunSummaries(db, page);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? encodeCursor({ v: byTurns ? last.maxTurn : (last.startedAt?.toISOString() ?? null), id: last.id })
      : null;
  return { runs: page.map((run) => toRunListItem(run, summaries.get(run.id)!)), nextCursor };
}

function afterCursor(cursor: Cursor, column: "maxTurn" | "startedAt", direction: Prisma.SortOrder, byTurns: boolean): Prisma.RunWhereInput {
  const further = direction === "desc" ? "lt" : "gt";
  if (cursor.v === null) {
    // Rows without a value sort last: only those with a further id remain.
    return { [column]: null, id: { [further]: cursor.id } };
  }
  const value = byTurns ? Number(cursor.v) : new Date(String(cursor.v));
  return {
    OR: [
      { [column]: { [further]: value } },
      { [column]: value, id: { [further]: cursor.id } },
      { [column]: null },
    ],
  };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Cursor;
    if (typeof cursor.id === "string") return cursor;
  } catch {
    // fall through
  }
  throw new DomainError("invalid", "not a cursor this API gave out: use the nextCursor of the previous page", "cursor");
}
