import { MAX_SAVED_VIEWS, type TSavedView, type TSavedViewCreate, type TSavedViewPage, type TSavedViewUpdate } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { hasSqlState, isUniqueViolation } from "@/lib/server/db/errors";
import { DomainError } from "@/lib/server/errors";

/** The SQLSTATE of the trigger that holds a page to MAX_SAVED_VIEWS views (migration 20261222000000_saved_views_cap). */
const PAGE_FULL = "CSV01";

type Row = { id: string; page: string; name: string; query: string; createdAt: Date; updatedAt: Date };

function toView(row: Row): TSavedView {
  return {
    id: row.id,
    page: row.page as TSavedViewPage,
    name: row.name,
    query: row.query,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The query as stored: without a `cursor` (a view is filters and sort, not a page position). */
export function storedQuery(query: string): string {
  const params = new URLSearchParams(query);
  params.delete("cursor");
  return params.toString();
}

const taken = (name: string) => new DomainError("conflict", `a view named ${JSON.stringify(name)} already exists on this page`, "name");
const full = () => new DomainError("conflict", `a page keeps at most ${MAX_SAVED_VIEWS} saved views: delete one first`, "name");
const notFound = (id: string) => new DomainError("not_found", `no saved view ${JSON.stringify(id)} in this project`, "id");

/** The project's saved views (of one page, or all), by page then name. */
export async function listSavedViews(db: Database, projectId: string, page?: TSavedViewPage): Promise<TSavedView[]> {
  const rows = await db.prisma.savedView.findMany({
    where: { projectId, ...(page ? { page } : {}) },
    orderBy: [{ page: "asc" }, { name: "asc" }, { id: "asc" }],
    take: MAX_SAVED_VIEWS * 2,
  });
  return rows.map(toView);
}

/**
 * Saves a page's query under a new name (409 when the page has a view of that name already, or
 * MAX_SAVED_VIEWS views). The cap is the database's: a trigger counts the page's views under a lock
 * of its project and page (migration 20261222000000_saved_views_cap), so concurrent creates cannot
 * pass it together.
 */
export async function createSavedView(db: Database, projectId: string, input: TSavedViewCreate): Promise<TSavedView> {
  try {
    const row = await db.prisma.savedView.create({
      data: { projectId, page: input.page, name: input.name, query: storedQuery(input.query) },
    });
    return toView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.name);
    if (hasSqlState(error, PAGE_FULL)) throw full();
    throw error;
  }
}

/** Renames a view and/or gives it a new query; only the project's own views. */
export async function updateSavedView(db: Database, projectId: string, id: string, input: TSavedViewUpdate): Promise<TSavedView> {
  try {
    const row = await db.prisma.savedView.update({
      where: { projectId_id: { projectId, id } },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.query !== undefined ? { query: storedQuery(input.query) } : {}),
        updatedAt: new Date(),
      },
    });
    return toView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(input.name ?? "");
    if (isNotFound(error)) throw notFound(id);
    throw error;
  }
}

/** Deletes one of the project's views (404 for another project's or an unknown id). */
export async function deleteSavedView(db: Database, projectId: string, id: string): Promise<void> {
  const { count } = await db.prisma.savedView.deleteMany({ where: { projectId, id } });
  if (count === 0) throw notFound(id);
}

/** Prisma's "record to update not found". */
function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}
