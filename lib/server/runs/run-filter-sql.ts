import { queryInstantDate } from "@/lib/contracts";
import { Prisma } from "@/lib/server/db/generated/client";
import { likeLiteral, type RunFilters } from "./run-filters";

/**
 * The runs-list filters as an SQL condition on `runs AS r`, for raw reads that join other tables
 * to the filtered runs: the same runs as `runFilterWhere` with the same options (run-filter-sql.test.ts
 * checks it filter by filter). Values are bound parameters, never spliced.
 */
export function runFilterSql(projectId: string, filters: RunFilters, options: { startedOnly?: boolean } = {}): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`r."project_id" = ${projectId}`];
  if (options.startedOnly) parts.push(Prisma.sql`r."task" IS NOT NULL`);
  if (filters.q) {
    const pattern = `%${likeLiteral(filters.q)}%`;
    parts.push(
      Prisma.sql`(r."run_id" ILIKE ${pattern} OR r."task" ILIKE ${pattern} OR r."agent" ILIKE ${pattern} OR r."model" ILIKE ${pattern})`,
    );
  }
  if (filters.status) parts.push(Prisma.sql`r."status" = ${filters.status}`);
  if (filters.agent) parts.push(Prisma.sql`r."agent" = ${filters.agent}`);
  if (filters.model) parts.push(Prisma.sql`r."model" = ${filters.model}`);
  if (filters.experiment) parts.push(Prisma.sql`r."experiment_id" = ${filters.experiment}`);
  if (filters.arm) parts.push(Prisma.sql`r."experiment_arm" = ${filters.arm}`);
  if (filters.runId) parts.push(Prisma.sql`r."run_id" = ${filters.runId}`);
  if (filters.hasViolations) parts.push(Prisma.sql`r."reviewer_violations" > 0`);
  if (filters.hasDrops) parts.push(Prisma.sql`r."dropped_count" > 0`);
  if (filters.finding) parts.push(Prisma.sql`r."finding_codes" @> ARRAY[${filters.finding}]::text[]`);
  if (filters.from) parts.push(Prisma.sql`r."started_at" >= ${queryInstantDate(filters.from).toISOString()}::timestamptz`);
  if (filters.to) parts.push(Prisma.sql`r."started_at" < ${queryInstantDate(filters.to).toISOString()}::timestamptz`);
  return Prisma.join(parts, " AND ");
}
