import { queryInstantDate, type TRunListQuery } from "@/lib/contracts";
import type { Prisma } from "@/lib/server/db/generated/client";

export type RunFilters = Partial<
  Pick<TRunListQuery, "status" | "agent" | "model" | "experiment" | "arm" | "q" | "from" | "to" | "hasViolations" | "hasDrops" | "finding">
> & {
  runId?: string;
};

/** The runs-list filters as a Prisma condition on a project's runs (shared by lists, audits and replays). */
export function runFilterWhere(projectId: string, filters: RunFilters, options: { startedOnly?: boolean } = {}): Prisma.RunWhereInput {
  const where: Prisma.RunWhereInput = { projectId };
  if (options.startedOnly) where.task = { not: null };
  if (filters.status) where.status = filters.status;
  if (filters.agent) where.agent = filters.agent;
  if (filters.model) where.model = filters.model;
  if (filters.experiment) where.experimentId = filters.experiment;
  if (filters.arm) where.experimentArm = filters.arm;
  if (filters.runId) where.runId = filters.runId;
  // The run's last rebuild's figures, kept on its row (lib/server/runs/list-figures.ts).
  if (filters.hasViolations) where.reviewerViolations = { gt: 0 };
  if (filters.hasDrops) where.droppedCount = { gt: 0 };
  if (filters.finding) where.findingCodes = { has: filters.finding };
  if (filters.q) {
    const contains = { contains: likeLiteral(filters.q), mode: "insensitive" } as const;
    where.OR = [{ runId: contains }, { task: contains }, { agent: contains }, { model: contains }];
  }
  if (filters.from || filters.to) {
    where.startedAt = {
      ...(filters.from ? { gte: queryInstantDate(filters.from) } : {}),
      ...(filters.to ? { lt: queryInstantDate(filters.to) } : {}),
    };
  }
  return where;
}

/**
 * Text searched for as itself inside a LIKE pattern: Prisma's `contains` becomes `ILIKE '%' || $1
 * || '%'` without escaping, so `%` and `_` would be wildcards. PostgreSQL's LIKE escape character
 * is the backslash by default, so it escapes itself and both wildcards.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
