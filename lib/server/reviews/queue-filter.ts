import "server-only";
import type { TReviewQueueFilters } from "@/lib/contracts";
import type { Viewer } from "@/lib/server/auth/keys";
import { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";

/**
 * The review queue's filters as SQL conditions (each starting with AND) over reviewer_rows `rr` and
 * its LEFT JOINed review `rv` (lib/server/reviews/review-row.ts): in the queue, reviewed or not, and
 * the assignee (`me` is the signed-in person: a key has none, so it is refused with a 400).
 */
export function reviewQueueSql(filters: TReviewQueueFilters, viewer: Viewer): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (filters.queue) parts.push(Prisma.sql`AND rr."in_queue"`);
  if (filters.reviewed === "yes") parts.push(Prisma.sql`AND rv."verdict" IS NOT NULL`);
  if (filters.reviewed === "no") parts.push(Prisma.sql`AND rv."verdict" IS NULL`);
  const assignee = assigneeOf(filters.assignee, viewer);
  if (assignee === null) parts.push(Prisma.sql`AND rv."assignee_person_id" IS NULL`);
  else if (assignee !== undefined) parts.push(Prisma.sql`AND rv."assignee_person_id" = ${assignee}`);
  return parts.length === 0 ? Prisma.empty : Prisma.join(parts, " ");
}

/** The assignee a filter names: a person id, null for `none`, undefined for no filter. */
export function assigneeOf(filter: string | undefined, viewer: Viewer): string | null | undefined {
  if (filter === undefined) return undefined;
  if (filter === "none") return null;
  if (filter !== "me") return filter;
  if (!viewer.personId) {
    throw new DomainError(
      "invalid",
      "query.assignee: `me` is the signed-in person, and an API key is no person: name a person id",
      "assignee",
    );
  }
  return viewer.personId;
}
