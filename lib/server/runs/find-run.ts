import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";

/** A project's run by the agent's runId; not found for other projects' runs too. */
export async function findRun(db: Database, projectId: string, runId: string) {
  const run = await db.prisma.run.findUnique({ where: { projectId_runId: { projectId, runId } } });
  if (!run) throw new DomainError("not_found", `no run ${JSON.stringify(runId)} in this project`, "runId");
  return run;
}

export type RunRow = Awaited<ReturnType<typeof findRun>>;
