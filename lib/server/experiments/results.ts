import type { TExperimentResults } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { experimentResults, type ArmSum } from "@/lib/experiments/results";
import { getExperiment } from "./experiments";

/**
 * GET /api/v1/experiments/:id/results (contract §10): the experiment's arms and the sums its runs'
 * rebuilds keep in experiment_rollups (per arm, status and count key), shaped by the pure
 * experimentResults. Rows read: arms × statuses × count keys, however many runs they sum.
 */
export async function getExperimentResults(db: Database, projectId: string, id: string): Promise<TExperimentResults> {
  const experiment = await getExperiment(db, projectId, id);
  const sums = await db.prisma.$queryRawUnsafe<ArmSum[]>(
    `SELECT "arm", "status", "key", "n"::float8 AS "n" FROM "experiment_rollups" WHERE "project_id" = $1 AND "experiment_id" = $2`,
    projectId,
    id,
  );
  return experimentResults({
    experimentId: experiment.id,
    key: experiment.key,
    status: experiment.status,
    arms: experiment.arms.map((a) => ({
      name: a.name,
      position: a.position,
      weight: a.weight,
      plannedRuns: a.plannedRuns,
      copyVersionId: a.copyVersionId,
      policyVersionId: a.policyVersionId,
    })),
    sums,
  });
}
