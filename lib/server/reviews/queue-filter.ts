import "server-only";
import type { TReviewQueueFilters } from "@/lib/contracts";
import type { Viewer } from "@/lib/server/auth/keys";
import { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";

/**
 * The review queue's filters as SQL conditions (each starting with AND) over reviewer_rows `rr`: in
 * the queue, reviewed or not, and the assignee (`me` is the signed-in person: a key has none, so it
 * is refused with a 400). The review is looked up per candidate (EXISTS on its primary key), so a
 * page still walks the candidates in their order and stops at the page's end. `OFFSET 0` keeps
 * PostgreSQL from turning the EXISTS into an anti- or semi-join: it estimated that join's rows as
 * a handful (2 of 9,272 for the open queue at 1M events), so it read every queue candidate and
 * every review and sorted them (1.8 ms at 100k events, 28.5 ms at 1M); as a filter per row the
 * first open page walks the newest runs' candidates and stops (0.25 ms at 100k, 0.28 ms at 1M).
 */
export function reviewQueueSql(filters: TReviewQueueFilters, viewer: Viewer, options: { reviewJoined?: boolean } = {}): Prisma.Sql {
  // A count over every candidate (the progress) has each one's review joined as `rv` already
  // (CANDIDATE_REVIEW_JOIN: at most one, by its key; nulls when there is none): there the conditions
  // are on that row.
  const lookup = (condition: Prisma.Sql) => Prisma.sql`(SELECT 1 FROM "reviews" rv
      WHERE rv."project_id" = rr."project_id" AND rv."run_pk" = rr."run_pk" AND rv."review_key" = rr."review_key" AND ${condition}
      OFFSET 0)`;
  const has = (condition: Prisma.Sql) =>
    options.reviewJoined ? Prisma.sql`AND (${condition})` : Prisma.sql`AND EXISTS ${lookup(condition)}`;
  const hasNot = (condition: Prisma.Sql) =>
    options.reviewJoined ? Prisma.sql`AND NOT COALESCE(${condition}, false)` : Prisma.sql`AND NOT EXISTS ${lookup(condition)}`;
  const parts: Prisma.Sql[] = [];
  if (filters.queue) parts.push(Prisma.sql`AND rr."in_queue"`);
  if (filters.reviewed === "yes") parts.push(has(Prisma.sql`rv."verdict" IS NOT NULL`));
  if (filters.reviewed === "no") parts.push(hasNot(Prisma.sql`rv."verdict" IS NOT NULL`));
  const assignee = assigneeOf(filters.assignee, viewer);
  if (assignee === null) parts.push(hasNot(Prisma.sql`rv."assignee_person_id" IS NOT NULL`));
  else if (assignee !== undefined) parts.push(has(Prisma.sql`rv."assignee_person_id" = ${assignee}`));
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
