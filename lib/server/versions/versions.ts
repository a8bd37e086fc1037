import type { TCopyVersion, TCopyVersionCreate, TPolicyVersion, TPolicyVersionCreate } from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { isUniqueViolation } from "@/lib/server/db/errors";
import { copyColumn, jsonColumn, policyColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";

/**
 * Copy and policy versions: saved once, never changed; a project marks one of each as its
 * default. Both kinds share this code; the stored document is `copy` or `policy`.
 */
type Row = { id: string; name: string; note: string | null; savedBy: string; parentId: string | null; createdAt: Date };

export async function createCopyVersion(db: Database, caller: Caller, input: TCopyVersionCreate): Promise<TCopyVersion> {
  await checkNew(db, caller.projectId, "copy", input.name, input.parentId);
  const row = await nameTakenAsConflict("copy", input.name, () =>
    db.prisma.copyVersion.create({ data: { ...meta(caller, input), copy: jsonColumn(input.copy) } }),
  );
  if (input.makeDefault) await setDefault(db, caller.projectId, "copy", row.id);
  return getCopyVersion(db, caller.projectId, row.id);
}

export async function createPolicyVersion(db: Database, caller: Caller, input: TPolicyVersionCreate): Promise<TPolicyVersion> {
  await checkNew(db, caller.projectId, "policy", input.name, input.parentId);
  const row = await nameTakenAsConflict("policy", input.name, () =>
    db.prisma.policyVersion.create({ data: { ...meta(caller, input), policy: jsonColumn(input.policy) } }),
  );
  if (input.makeDefault) await setDefault(db, caller.projectId, "policy", row.id);
  return getPolicyVersion(db, caller.projectId, row.id);
}

export async function listCopyVersions(db: Database, projectId: string): Promise<TCopyVersion[]> {
  const [rows, defaults] = await Promise.all([
    db.prisma.copyVersion.findMany({ where: { projectId }, orderBy: { createdAt: "desc" } }),
    defaultsOf(db, projectId),
  ]);
  return rows.map((row) => ({ ...dto(row, defaults.copy), kind: "copy", copy: copyColumn(row) }));
}

export async function listPolicyVersions(db: Database, projectId: string): Promise<TPolicyVersion[]> {
  const [rows, defaults] = await Promise.all([
    db.prisma.policyVersion.findMany({ where: { projectId }, orderBy: { createdAt: "desc" } }),
    defaultsOf(db, projectId),
  ]);
  return rows.map((row) => ({ ...dto(row, defaults.policy), kind: "policy", policy: policyColumn(row) }));
}

export async function getCopyVersion(db: Database, projectId: string, id: string): Promise<TCopyVersion> {
  const row = await db.prisma.copyVersion.findFirst({ where: { id, projectId } });
  if (!row) throw new DomainError("not_found", `no copy version ${JSON.stringify(id)} in this project`, "id");
  return { ...dto(row, (await defaultsOf(db, projectId)).copy), kind: "copy", copy: copyColumn(row) };
}

export async function getPolicyVersion(db: Database, projectId: string, id: string): Promise<TPolicyVersion> {
  const row = await db.prisma.policyVersion.findFirst({ where: { id, projectId } });
  if (!row) throw new DomainError("not_found", `no policy version ${JSON.stringify(id)} in this project`, "id");
  return { ...dto(row, (await defaultsOf(db, projectId)).policy), kind: "policy", policy: policyColumn(row) };
}

/** Marks a saved version as the project's default of its kind. */
export async function setDefault(db: Database, projectId: string, kind: "copy" | "policy", id: string): Promise<void> {
  const exists =
    kind === "copy"
      ? await db.prisma.copyVersion.count({ where: { id, projectId } })
      : await db.prisma.policyVersion.count({ where: { id, projectId } });
  if (!exists) throw new DomainError("not_found", `no ${kind} version ${JSON.stringify(id)} in this project`, "id");
  await db.prisma.project.update({
    where: { id: projectId },
    data: kind === "copy" ? { defaultCopyVersionId: id } : { defaultPolicyVersionId: id },
  });
}

function nameTaken(kind: "copy" | "policy", name: string): DomainError {
  return new DomainError(
    "conflict",
    `a ${kind} version named ${JSON.stringify(name)} already exists; saved versions never change — pick a new name`,
    "name",
  );
}

/** A concurrent save of the same name passes checkNew too; the unique (project, name) index decides. */
async function nameTakenAsConflict<T>(kind: "copy" | "policy", name: string, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(kind, name);
    throw error;
  }
}

async function checkNew(
  db: Database,
  projectId: string,
  kind: "copy" | "policy",
  name: string,
  parentId: string | undefined,
): Promise<void> {
  const where = { projectId, name };
  const taken = kind === "copy" ? await db.prisma.copyVersion.count({ where }) : await db.prisma.policyVersion.count({ where });
  if (taken) throw nameTaken(kind, name);
  if (parentId) {
    const parent =
      kind === "copy"
        ? await db.prisma.copyVersion.count({ where: { id: parentId, projectId } })
        : await db.prisma.policyVersion.count({ where: { id: parentId, projectId } });
    if (!parent)
      throw new DomainError("invalid", `the parent ${kind} version ${JSON.stringify(parentId)} does not exist in this project`, "parentId");
  }
}

function meta(caller: Caller, input: { name: string; note?: string; parentId?: string }) {
  return {
    projectId: caller.projectId,
    name: input.name,
    note: input.note ?? null,
    parentId: input.parentId ?? null,
    savedBy: caller.key.label ?? `key ${caller.key.prefix}…`,
  };
}

async function defaultsOf(db: Database, projectId: string): Promise<{ copy: string | null; policy: string | null }> {
  const project = await db.prisma.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { defaultCopyVersionId: true, defaultPolicyVersionId: true },
  });
  return { copy: project.defaultCopyVersionId, policy: project.defaultPolicyVersionId };
}

function dto(row: Row, defaultId: string | null) {
  return {
    id: row.id,
    name: row.name,
    note: row.note,
    savedBy: row.savedBy,
    parentId: row.parentId,
    createdAt: row.createdAt.toISOString(),
    isDefault: row.id === defaultId,
  };
}
