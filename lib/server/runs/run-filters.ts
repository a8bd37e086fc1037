import type { TRunListQuery } from "../../contracts";
import type { Prisma } from "../db/generated/client";

export type RunFilters = Partial<Pick<TRunListQuery, "status" | "agent" | "model" | "q" | "from" | "to">> & { runId?: string };

/** The runs-list filters as a Prisma condition on a project's runs (shared by lists, audits and replays). */
export function runFilterWhere(projectId: string, filters: RunFilters, options: { startedOnly?: boolean } = {}): Prisma.RunWhereInput {
  const where: Prisma.RunWhereInput = { projectId };
  if (options.startedOnly) where.task = { not: null };
  if (filters.status) where.status = filters.status;
  if (filters.agent) where.agent = filters.agent;
  if (filters.model) where.model = filters.model;
  if (filters.runId) where.runId = filters.runId;
  if (filters.q) where.task = { contains: filters.q, mode: "insensitive" };
  if (filters.from || filters.to) {
    where.startedAt = { ...(filters.from ? { gte: new Date(filters.from) } : {}), ...(filters.to ? { lt: new Date(filters.to) } : {}) };
  }
  return where;
}
