import "server-only";
import { RUN_STATUSES, type TRunFacets, type TRunStatus } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";

/** The values the runs list can be filtered by in a project: its agents, models and statuses. */
export async function getRunFacets(db: Database, projectId: string): Promise<TRunFacets> {
  const [agents, models, statuses] = await Promise.all([
    db.prisma.run.findMany({
      where: { projectId, agent: { not: null } },
      distinct: ["agent"],
      select: { agent: true },
      orderBy: { agent: "asc" },
    }),
    db.prisma.run.findMany({
      where: { projectId, model: { not: null } },
      distinct: ["model"],
      select: { model: true },
      orderBy: { model: "asc" },
    }),
    db.prisma.run.findMany({ where: { projectId }, distinct: ["status"], select: { status: true } }),
  ]);
  const present = new Set(statuses.map((s) => s.status));
  return {
    agents: agents.map((a) => a.agent!),
    models: models.map((m) => m.model!),
    statuses: RUN_STATUSES.filter((status: TRunStatus) => present.has(status)),
  };
}
