import { cache } from "react";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";

/**
 * A project's run by the agent's runId; not found for other projects' runs too.
 *
 * Read once per page render: a page's loaders (the run page has seven) each find the run, and React's
 * `cache` gives them the one row for the render. Outside a render (API routes, jobs, scripts) it
 * reads the row on every call.
 */
export const findRun = cache(async function findRun(db: Database, projectId: string, runId: string) {
  const run = await db.prisma.run.findUnique({ where: { projectId_runId: { projectId, runId } } });
  if (!run) throw new DomainError("not_found", `no run ${JSON.stringify(runId)} in this project`, "runId");
  return run;
});

export type RunRow = Awaited<ReturnType<typeof findRun>>;
