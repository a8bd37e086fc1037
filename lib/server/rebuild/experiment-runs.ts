import { REMINDER_KEYS, type TReminderKey } from "@/lib/contracts";
import { assignArm } from "@/lib/core/experiment-assignment";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { lockProjectRollups } from "@/lib/server/trends/store-buckets";
import type { ExperimentOutput } from "./rebuild-task";

/** The experiment a run names, as its rebuild reads it: the project's experiment's key and arms, or null when it has none of that id. */
export interface RunExperiment {
  id: string;
  arm: string;
  /** Null when the experiment id is not one of the project's. */
  found: { key: TReminderKey; arms: { name: string; weight: number }[] } | null;
}

/** A run's experiment_runs row (migration 20261228000100_experiment_runs). */
export interface ExperimentRunRow {
  experimentId: string;
  arm: string;
  assignedArm: string | null;
  status: "counted" | "mismatched" | "unknown" | "live";
  counts: Record<string, number>;
}

/** The experiment (its key and arms, in order) that the run's runs.experiment_id names; null when the run names none. */
export async function readRunExperiment(
  db: Database,
  run: { projectId: string; experimentId: string | null; experimentArm: string | null },
): Promise<RunExperiment | null> {
  if (run.experimentId === null) return null;
  const rows = await db.prisma.$queryRaw<{ key: string; name: string | null; weight: number | null }[]>`
    SELECT e."key", a."name", a."weight" FROM "experiments" e
      LEFT JOIN "experiment_arms" a ON a."project_id" = e."project_id" AND a."experiment_id" = e."id"
     WHERE e."project_id" = ${run.projectId} AND e."id" = ${run.experimentId}
     ORDER BY a."position"`;
  const key = rows[0]?.key as TReminderKey | undefined;
  const found =
    key !== undefined && REMINDER_KEYS.includes(key)
      ? { key, arms: rows.flatMap((r) => (r.name === null || r.weight === null ? [] : [{ name: r.name, weight: r.weight }])) }
      : null;
  return { id: run.experimentId, arm: run.experimentArm ?? "", found };
}

/**
 * The run's row (contract §10, "Which runs count"): `unknown` when the experiment is not the
 * project's, `live` until the run has ended, then `counted` when the arm it named is its assignment
 * (assignArm over the experiment's arms) and `mismatched` when not (another arm, one the experiment
 * does not have, or an experiment without arms of positive weight: no assignment).
 */
export function experimentRunRow(runId: string, experiment: RunExperiment, output: ExperimentOutput): ExperimentRunRow {
  const base = { experimentId: experiment.id, arm: experiment.arm, counts: output.counts };
  if (!experiment.found) return { ...base, assignedArm: null, status: "unknown" };
  let assignedArm: string | null = null;
  try {
    assignedArm = assignArm(experiment.id, runId, experiment.found.arms).name;
  } catch {
    assignedArm = null; // no arms, or weights summing to 0: no run is assigned
  }
  if (!output.ended) return { ...base, assignedArm, status: "live" };
  return { ...base, assignedArm, status: assignedArm !== null && assignedArm === experiment.arm ? "counted" : "mismatched" };
}

/**
 * Stores the run's experiment_runs row inside the rebuild's transaction (null: the run has none, any
 * stale row is deleted). An unchanged row is not written; a changed one is updated in place, so the
 * triggers add only each count key's difference to experiment_rollups. Written under the project's
 * rollup lock (the trend buckets' writers take it too), so two rebuilds never wait on each other's
 * rollup rows in opposite orders.
 */
export async function storeExperimentRun(
  tx: Prisma.TransactionClient,
  run: { id: string; projectId: string },
  row: ExperimentRunRow | null,
): Promise<void> {
  if (row === null) {
    const stale = await tx.$queryRaw<unknown[]>`
      SELECT 1 FROM "experiment_runs" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
    if (stale.length === 0) return;
    await lockProjectRollups(tx, run.projectId);
    await tx.$executeRaw`DELETE FROM "experiment_runs" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
    return;
  }
  const counts = JSON.stringify(row.counts);
  await lockProjectRollups(tx, run.projectId);
  const updated = await tx.$executeRaw`
    UPDATE "experiment_runs" SET "experiment_id" = ${row.experimentId}, "arm" = ${row.arm}, "assigned_arm" = ${row.assignedArm},
           "status" = ${row.status}, "counts" = ${counts}::jsonb
     WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}
       AND ("experiment_id", "arm", "assigned_arm", "status", "counts")
           IS DISTINCT FROM (${row.experimentId}::text, ${row.arm}::text, ${row.assignedArm}::text, ${row.status}::text, ${counts}::jsonb)`;
  if (updated > 0) return;
  await tx.$executeRaw`
    INSERT INTO "experiment_runs" ("project_id", "run_pk", "experiment_id", "arm", "assigned_arm", "status", "counts")
    VALUES (${run.projectId}, ${run.id}, ${row.experimentId}, ${row.arm}, ${row.assignedArm}, ${row.status}, ${counts}::jsonb)
    ON CONFLICT ("project_id", "run_pk") DO NOTHING`;
}
