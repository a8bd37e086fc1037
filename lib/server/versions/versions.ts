import type {
  TCopyVersion,
  TCopyVersionCreate,
  TPolicyVersion,
  TPolicyVersionCreate,
  TVersionCreateOf,
  TVersionInfo,
  TVersionKind,
  TVersionOf,
} from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { isUniqueViolation } from "@/lib/server/db/errors";
import { actorOf, recordAudit, signedName } from "@/lib/server/audit/audit-log";
import { DomainError } from "@/lib/server/errors";
import { COPY_VERSIONS, POLICY_VERSIONS, VERSION_KIND, type VersionKind, type VersionRow } from "./kinds";

/**
 * Copy and policy versions: saved once, never changed; a project marks one of each as its
 * default. One implementation serves both kinds; each kind supplies its contract, its table and
 * its document column (kinds.ts).
 */

export async function createVersion<K extends TVersionKind>(
  db: Database,
  caller: Caller,
  of: VersionKind<K>,
  input: TVersionCreateOf<K>,
): Promise<TVersionOf<K>> {
  await checkNew(db, caller.projectId, of, input.name, input.parentId);
  // The version, its audit entry and (with makeDefault) the new default commit together.
  const row = await nameTakenAsConflict(of, input.name, () =>
    db.prisma.$transaction(async (tx) => {
      const created = await of.table(tx).create({ data: { ...meta(caller, input), ...of.documentColumn(input) } });
      await recordAudit(tx, caller.projectId, actorOf(caller), {
        action: `${of.kind}Version.create`,
        target: { id: created.id, name: created.name },
        after: { id: created.id, name: created.name, parentId: created.parentId, note: created.note },
      });
      if (input.makeDefault) await changeDefault(tx, caller, of, created);
      return created;
    }),
  );
  return getVersion(db, caller.projectId, of, row.id);
}

/** A project's versions of one kind, newest first. */
export async function listVersions<K extends TVersionKind>(db: Database, projectId: string, of: VersionKind<K>): Promise<TVersionOf<K>[]> {
  const [rows, defaultId] = await Promise.all([
    of.table(db.prisma).findMany({ where: { projectId }, orderBy: { createdAt: "desc" } }),
    defaultOf(db, projectId, of),
  ]);
  return rows.map((row) => of.version(fields(row, defaultId), row));
}

export async function getVersion<K extends TVersionKind>(
  db: Database,
  projectId: string,
  of: VersionKind<K>,
  id: string,
): Promise<TVersionOf<K>> {
  const row = await of.table(db.prisma).findFirst({ where: { id, projectId } });
  if (!row) throw notFound(of, id);
  return of.version(fields(row, await defaultOf(db, projectId, of)), row);
}

/** Marks a saved version as the project's default of its kind (the audit log records the change). */
export async function setDefault(db: Database, caller: Caller, kind: TVersionKind, id: string): Promise<void> {
  const of: VersionKind<TVersionKind> = VERSION_KIND[kind];
  await db.prisma.$transaction(async (tx) => {
    const row = await of.table(tx).findFirst({ where: { id, projectId: caller.projectId } });
    if (!row) throw notFound(of, id);
    await changeDefault(tx, caller, of, row);
  });
}

type Tx = Parameters<Parameters<Database["prisma"]["$transaction"]>[0]>[0];

/**
 * Makes `row` the default of its kind and records the change with the default it replaced. The
 * project's row is locked first, so two changes at once each record the default the other left
 * (FOR NO KEY UPDATE: a version inserted in the same transaction holds the row's key-share lock,
 * which FOR UPDATE would conflict with across two such transactions: a deadlock).
 * Marking the default again changes nothing and records nothing.
 */
async function changeDefault(tx: Tx, caller: Caller, of: VersionKind<TVersionKind>, row: VersionRow): Promise<void> {
  const column = of.kind === "copy" ? "default_copy_version_id" : "default_policy_version_id";
  const [locked] = await tx.$queryRawUnsafe<{ current: string | null }[]>(
    `SELECT "${column}" AS "current" FROM "projects" WHERE "id" = $1 FOR NO KEY UPDATE`,
    caller.projectId,
  );
  const current = locked?.current ?? null;
  if (current === row.id) return;
  const previous = current ? await of.table(tx).findFirst({ where: { id: current, projectId: caller.projectId } }) : null;
  await tx.project.update({ where: { id: caller.projectId }, data: { [of.defaultColumn]: row.id } });
  await recordAudit(tx, caller.projectId, actorOf(caller), {
    action: `${of.kind}Version.makeDefault`,
    target: { id: row.id, name: row.name },
    before: previous ? { id: previous.id, name: previous.name } : null,
    after: { id: row.id, name: row.name },
  });
}

export function createCopyVersion(db: Database, caller: Caller, input: TCopyVersionCreate): Promise<TCopyVersion> {
  return createVersion(db, caller, COPY_VERSIONS, input);
}

export function createPolicyVersion(db: Database, caller: Caller, input: TPolicyVersionCreate): Promise<TPolicyVersion> {
  return createVersion(db, caller, POLICY_VERSIONS, input);
}

export function getCopyVersion(db: Database, projectId: string, id: string): Promise<TCopyVersion> {
  return getVersion(db, projectId, COPY_VERSIONS, id);
}

export function getPolicyVersion(db: Database, projectId: string, id: string): Promise<TPolicyVersion> {
  return getVersion(db, projectId, POLICY_VERSIONS, id);
}

function notFound(of: VersionKind<TVersionKind>, id: string): DomainError {
  return new DomainError("not_found", `no ${of.noun} ${JSON.stringify(id)} in this project`, "id");
}

function nameTaken(of: VersionKind<TVersionKind>, name: string): DomainError {
  return new DomainError(
    "conflict",
    `a ${of.noun} named ${JSON.stringify(name)} already exists; saved versions never change — pick a new name`,
    "name",
  );
}

/** A concurrent save of the same name passes checkNew too; the unique (project, name) index decides. */
async function nameTakenAsConflict<T>(of: VersionKind<TVersionKind>, name: string, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(of, name);
    throw error;
  }
}

async function checkNew(
  db: Database,
  projectId: string,
  of: VersionKind<TVersionKind>,
  name: string,
  parentId: string | undefined,
): Promise<void> {
  const table = of.table(db.prisma);
  if (await table.count({ where: { projectId, name } })) throw nameTaken(of, name);
  if (parentId && !(await table.count({ where: { id: parentId, projectId } }))) {
    throw new DomainError("invalid", `the parent ${of.noun} ${JSON.stringify(parentId)} does not exist in this project`, "parentId");
  }
}

function meta(caller: Caller, input: { name: string; note?: string; parentId?: string }) {
  return {
    projectId: caller.projectId,
    name: input.name,
    note: input.note ?? null,
    parentId: input.parentId ?? null,
    savedBy: signedName(caller),
  };
}

/** The id of the project's default version of this kind, if it has one. */
async function defaultOf(db: Database, projectId: string, of: VersionKind<TVersionKind>): Promise<string | null> {
  const project = await db.prisma.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { defaultCopyVersionId: true, defaultPolicyVersionId: true },
  });
  return project[of.defaultColumn];
}

function fields(row: VersionRow, defaultId: string | null): TVersionInfo {
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
