import type {
  TExperiment,
  TExperimentArm,
  TExperimentArmInput,
  TExperimentAssignment,
  TExperimentCreate,
  TExperimentPromotion,
  TExperimentStatus,
  TExperimentSummary,
  TExperimentUpdate,
  TReminderKey,
  TResolvedExperimentArm,
} from "@/lib/contracts";
import { assignArm } from "@/lib/core/experiment-assignment";
import type { Caller } from "@/lib/server/auth/keys";
import { wantRebuild } from "@/lib/server/jobs/wanted";
import type { Database } from "@/lib/server/db";
import { isUniqueViolation } from "@/lib/server/db/errors";
import { actorOf, recordAudit, signedName } from "@/lib/server/audit/audit-log";
import { copyColumn, policyColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";

/**
 * Copy and policy experiments (contract §10, experiments): a project's experiments, each with two
 * or more arms. Arms change only in `draft`; `running` answers assignments; `stopped` keeps every
 * run's arm. Every write names the `version` it read and is one `UPDATE … WHERE version = $read`:
 * a write over a newer version changes nothing and is a conflict (409), so two concurrent writes
 * never lose one.
 */

type Tx = Parameters<Parameters<Database["prisma"]["$transaction"]>[0]>[0];
type Client = Database["prisma"] | Tx;

interface ExperimentRow {
  id: string;
  name: string;
  note: string | null;
  key: string;
  status: string;
  version: number;
  createdBy: string;
  createdAt: Date;
  startedAt: Date | null;
  stoppedAt: Date | null;
  arms: TExperimentArm[];
}

const WITH_ARMS = { arms: { orderBy: { position: "asc" as const } } };

/** The project's experiments, newest first, their arms as stored. */
export async function listExperiments(db: Database, projectId: string): Promise<TExperimentSummary[]> {
  const rows = await db.prisma.experiment.findMany({
    where: { projectId },
    include: WITH_ARMS,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map((row) => summary(row));
}

/** One experiment of the project, each arm's copy and policy resolved to their documents. */
export function getExperiment(db: Database, projectId: string, id: string): Promise<TExperiment> {
  return readExperiment(db.prisma, projectId, id);
}

async function readExperiment(db: Client, projectId: string, id: string): Promise<TExperiment> {
  const row = await findExperiment(db, projectId, id);
  return { ...summary(row), arms: await resolveArms(db, projectId, row.arms) };
}

/**
 * Saves a new draft (201); a name the project has is a conflict, as for saved versions. `options.id`
 * chooses its id instead of a new one (the demo data, whose runs' arms then never change); the API
 * never sends one.
 */
export async function createExperiment(
  db: Database,
  caller: Caller,
  input: TExperimentCreate,
  options: { id?: string } = {},
): Promise<TExperiment> {
  const { projectId } = caller;
  await checkVersions(db, projectId, input.arms);
  const created = await nameTakenAsConflict(input.name, () =>
    db.prisma.$transaction(async (tx) => {
      const row = await tx.experiment.create({
        data: {
          ...(options.id ? { id: options.id } : {}),
          projectId,
          name: input.name,
          note: input.note ?? null,
          key: input.key,
          createdBy: signedName(caller),
          arms: { create: input.arms.map((arm, position) => armRow(arm, position)) },
        },
      });
      const experiment = await readExperiment(tx, projectId, row.id);
      await recordAudit(tx, projectId, actorOf(caller), {
        action: "experiment.create",
        target: { id: row.id, name: row.name },
        after: auditFields(experiment),
      });
      return experiment;
    }),
  );
  return created;
}

/** Replaces a draft's name, note, key and arms; only in `draft`, and only over the version read. */
export async function updateExperiment(db: Database, caller: Caller, id: string, input: TExperimentUpdate): Promise<TExperiment> {
  const { projectId } = caller;
  await checkVersions(db, projectId, input.arms);
  return nameTakenAsConflict(input.name, () =>
    db.prisma.$transaction(async (tx) => {
      const before = await findExperiment(tx, projectId, id).catch(() => null);
      const { count } = await tx.experiment.updateMany({
        where: { projectId, id, version: input.version, status: "draft" },
        data: { name: input.name, note: input.note ?? null, key: input.key, version: { increment: 1 } },
      });
      if (count === 0) throw await refusal(tx, projectId, id, input.version, "draft", "change");
      await tx.experimentArm.deleteMany({ where: { projectId, experimentId: id } });
      await tx.experimentArm.createMany({
        data: input.arms.map((arm, position) => ({ projectId, experimentId: id, ...armRow(arm, position) })),
      });
      const after = await readExperiment(tx, projectId, id);
      await recordAudit(tx, projectId, actorOf(caller), {
        action: "experiment.update",
        target: { id, name: after.name },
        before: before ? auditFields(summary(before)) : null,
        after: auditFields(after),
      });
      return after;
    }),
  ).then(async (experiment) => {
    await markRunsStale(db, projectId, id);
    return experiment;
  });
}

/**
 * Runs that named the experiment keep rows (experiment_runs) computed with the arms their rebuild
 * read: after the arms changed, their stored rebuild is marked behind (derived_version 0), so the
 * sweep of stale runs rebuilds them, and the background work is asked to now. Only runs that named
 * this experiment are touched (usually none: a draft answers no assignments).
 */
async function markRunsStale(db: Database, projectId: string, id: string): Promise<void> {
  const rows = await db.prisma.$queryRawUnsafe<{ runPk: string }[]>(
    `UPDATE "run_decisions" d SET "derived_version" = 0 FROM "runs" r
      WHERE r."project_id" = $1 AND r."experiment_id" = $2 AND d."project_id" = r."project_id" AND d."run_pk" = r."id"
      RETURNING d."run_pk" AS "runPk"`,
    projectId,
    id,
  );
  wantRebuild(
    projectId,
    rows.map((r) => r.runPk),
  );
}

/** `draft` → `running`: assignments are answered from now on. */
export async function startExperiment(db: Database, caller: Caller, id: string, version: number): Promise<TExperiment> {
  const experiment = await move(db, caller, id, version, "draft", { status: "running", startedAt: new Date() }, "start");
  await markRunsStale(db, caller.projectId, id);
  return experiment;
}

/** `running` → `stopped`: no more assignments; runs keep the arm they were in. */
export function stopExperiment(db: Database, caller: Caller, id: string, version: number): Promise<TExperiment> {
  return move(db, caller, id, version, "running", { status: "stopped", stoppedAt: new Date() }, "stop");
}

/** The arm of `runId` (contract §10, assignment), answered only while the experiment is running. */
export async function assignRun(db: Database, projectId: string, id: string, runId: string): Promise<TExperimentAssignment> {
  const row = await findExperiment(db.prisma, projectId, id);
  if (row.status !== "running") {
    throw new DomainError(
      "conflict",
      `experiment ${JSON.stringify(row.name)} is ${row.status}: assignments are answered only while it is running`,
      "id",
    );
  }
  const arm = assignArm(row.id, runId, row.arms);
  const [resolved] = await resolveArms(db.prisma, projectId, [arm]);
  return {
    experimentId: row.id,
    runId,
    arm: arm.name,
    position: arm.position,
    copyVersionId: arm.copyVersionId,
    policyVersionId: arm.policyVersionId,
    copy: resolved.copy,
    policy: resolved.policy,
  };
}

/**
 * Makes an arm's copy and/or policy version the project's defaults, over the experiment version
 * read (it raises the version, so of two promotes that read the same version one is a conflict).
 * An arm with neither has nothing to promote.
 */
export async function promoteArm(
  db: Database,
  caller: Caller,
  id: string,
  armName: string,
  version: number,
): Promise<TExperimentPromotion> {
  const { projectId } = caller;
  return db.prisma.$transaction(async (tx) => {
    const row = await findExperiment(tx, projectId, id);
    const arm = row.arms.find((a) => a.name === armName);
    if (!arm) throw new DomainError("not_found", `experiment ${JSON.stringify(row.name)} has no arm ${JSON.stringify(armName)}`, "arm");
    if (!arm.copyVersionId && !arm.policyVersionId) {
      throw new DomainError(
        "invalid",
        `arm ${JSON.stringify(armName)} renders with the agent's own copy and policy: it has no version to promote`,
        "arm",
      );
    }
    const { count } = await tx.experiment.updateMany({ where: { projectId, id, version }, data: { version: { increment: 1 } } });
    if (count === 0) throw await refusal(tx, projectId, id, version, null, "promote an arm of");
    // Locked, so the entry's "before" is the defaults this promotion replaced.
    const [before] = await tx.$queryRawUnsafe<{ defaultCopyVersionId: string | null; defaultPolicyVersionId: string | null }[]>(
      `SELECT "default_copy_version_id" AS "defaultCopyVersionId", "default_policy_version_id" AS "defaultPolicyVersionId"
         FROM "projects" WHERE "id" = $1 FOR NO KEY UPDATE`,
      projectId,
    );
    const project = await tx.project.update({
      where: { id: projectId },
      data: {
        ...(arm.copyVersionId ? { defaultCopyVersionId: arm.copyVersionId } : {}),
        ...(arm.policyVersionId ? { defaultPolicyVersionId: arm.policyVersionId } : {}),
      },
      select: { defaultCopyVersionId: true, defaultPolicyVersionId: true },
    });
    await recordAudit(tx, projectId, actorOf(caller), {
      action: "experiment.promote",
      target: { id, name: row.name },
      before: { arm: armName, ...before },
      after: { arm: armName, ...project },
    });
    return { experiment: await readExperiment(tx, projectId, id), ...project };
  });
}

async function move(
  db: Database,
  caller: Caller,
  id: string,
  version: number,
  from: TExperimentStatus,
  data: { status: TExperimentStatus; startedAt?: Date; stoppedAt?: Date },
  verb: "start" | "stop",
): Promise<TExperiment> {
  const { projectId } = caller;
  return db.prisma.$transaction(async (tx) => {
    const { count } = await tx.experiment.updateMany({
      where: { projectId, id, version, status: from },
      data: { ...data, version: { increment: 1 } },
    });
    if (count === 0) throw await refusal(tx, projectId, id, version, from, verb);
    const experiment = await readExperiment(tx, projectId, id);
    await recordAudit(tx, projectId, actorOf(caller), {
      action: `experiment.${verb}`,
      target: { id, name: experiment.name },
      before: { status: from },
      after: { status: experiment.status },
    });
    return experiment;
  });
}

/** Why a guarded write changed no row: no such experiment (404), the wrong status or a newer version (409). */
async function refusal(
  db: Client,
  projectId: string,
  id: string,
  version: number,
  status: TExperimentStatus | null,
  verb: string,
): Promise<DomainError> {
  const row = await findExperiment(db, projectId, id);
  if (status && row.status !== status) {
    const message =
      verb === "change"
        ? `experiment ${JSON.stringify(row.name)} is ${row.status}: arms are frozen once started; create a new experiment`
        : `experiment ${JSON.stringify(row.name)} is ${row.status}: only a ${status} experiment can ${verb}`;
    return new DomainError("conflict", message, "status");
  }
  return new DomainError(
    "conflict",
    `experiment ${JSON.stringify(row.name)} changed since you read it (version ${row.version} now, you sent ${version}): read it again`,
    "version",
  );
}

async function findExperiment(db: Client, projectId: string, id: string): Promise<ExperimentRow> {
  const row = await db.experiment.findUnique({ where: { projectId_id: { projectId, id } }, include: WITH_ARMS });
  if (!row) throw new DomainError("not_found", `no experiment ${JSON.stringify(id)} in this project`, "id");
  return { ...row, arms: row.arms.map(armOf) };
}

/** Every copy and policy version an arm names must be one of this project's saved versions. */
async function checkVersions(db: Database, projectId: string, arms: TExperimentArmInput[]): Promise<void> {
  const copyIds = [...new Set(arms.flatMap((arm) => (arm.copyVersionId ? [arm.copyVersionId] : [])))];
  const policyIds = [...new Set(arms.flatMap((arm) => (arm.policyVersionId ? [arm.policyVersionId] : [])))];
  const [copies, policies] = await Promise.all([
    db.prisma.copyVersion.findMany({ where: { projectId, id: { in: copyIds } }, select: { id: true } }),
    db.prisma.policyVersion.findMany({ where: { projectId, id: { in: policyIds } }, select: { id: true } }),
  ]);
  const known = { copy: new Set(copies.map((c) => c.id)), policy: new Set(policies.map((p) => p.id)) };
  arms.forEach((arm, i) => {
    for (const [kind, field, value] of [
      ["copy", "copyVersionId", arm.copyVersionId],
      ["policy", "policyVersionId", arm.policyVersionId],
    ] as const) {
      if (value !== undefined && !known[kind].has(value)) {
        throw new DomainError(
          "invalid",
          `body.arms.${i}.${field}: ${JSON.stringify(value)} is not a saved ${kind} version of this project`,
          `arms.${i}.${field}`,
        );
      }
    }
  });
}

/** The arms with their versions' documents, read in one query per kind. */
async function resolveArms(db: Client, projectId: string, arms: TExperimentArm[]): Promise<TResolvedExperimentArm[]> {
  const copyIds = arms.flatMap((arm) => (arm.copyVersionId ? [arm.copyVersionId] : []));
  const policyIds = arms.flatMap((arm) => (arm.policyVersionId ? [arm.policyVersionId] : []));
  const [copies, policies] = await Promise.all([
    copyIds.length ? db.copyVersion.findMany({ where: { projectId, id: { in: copyIds } }, select: { id: true, copy: true } }) : [],
    policyIds.length ? db.policyVersion.findMany({ where: { projectId, id: { in: policyIds } }, select: { id: true, policy: true } }) : [],
  ]);
  const copyById = new Map(copies.map((row) => [row.id, copyColumn(row)]));
  const policyById = new Map(policies.map((row) => [row.id, policyColumn(row)]));
  return arms.map((arm) => ({
    ...arm,
    copy: arm.copyVersionId ? (copyById.get(arm.copyVersionId) ?? missing("copy", arm.copyVersionId)) : null,
    policy: arm.policyVersionId ? (policyById.get(arm.policyVersionId) ?? missing("policy", arm.policyVersionId)) : null,
  }));
}

/** Saved versions are never deleted but with their project; a row naming a missing one is stored data gone wrong. */
function missing(kind: "copy" | "policy", id: string): never {
  throw new Error(`experiment_arms names ${kind} version ${JSON.stringify(id)}, which is not stored in the project`);
}

async function nameTakenAsConflict<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError(
        "conflict",
        `an experiment named ${JSON.stringify(name)} already exists in this project; pick a new name`,
        "name",
      );
    }
    throw error;
  }
}

function armRow(arm: TExperimentArmInput, position: number) {
  return {
    position,
    name: arm.name,
    weight: arm.weight,
    plannedRuns: arm.plannedRuns,
    copyVersionId: arm.copyVersionId ?? null,
    policyVersionId: arm.policyVersionId ?? null,
  };
}

function armOf(row: TExperimentArm & Record<string, unknown>): TExperimentArm {
  return {
    position: row.position,
    name: row.name,
    weight: row.weight,
    plannedRuns: row.plannedRuns,
    copyVersionId: row.copyVersionId,
    policyVersionId: row.policyVersionId,
  };
}

function summary(row: Omit<ExperimentRow, "arms"> & { arms: (TExperimentArm & Record<string, unknown>)[] }): TExperimentSummary {
  return {
    id: row.id,
    name: row.name,
    note: row.note,
    key: row.key as TReminderKey,
    status: row.status as TExperimentStatus,
    version: row.version,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
    arms: row.arms.map(armOf),
  };
}

/** What an experiment's audit entries keep of it: what a draft's change can change, never the arms' documents. */
function auditFields(experiment: Pick<TExperiment, "name" | "note" | "key"> & { arms: readonly TExperimentArm[] }) {
  return {
    name: experiment.name,
    note: experiment.note,
    key: experiment.key,
    arms: experiment.arms.map(({ name, weight, plannedRuns, copyVersionId, policyVersionId }) => ({
      name,
      weight,
      plannedRuns,
      copyVersionId,
      policyVersionId,
    })),
  };
}
