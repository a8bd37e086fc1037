import { createHash, randomBytes } from "node:crypto";
import type { TApiKey, TApiKeyCreate, TKeyScope, TPersonRole } from "@/lib/contracts";
import { actorOf, COMMAND_LINE, keyName, recordAudit, type Actor } from "@/lib/server/audit/audit-log";
import type { Database } from "@/lib/server/db";
import { noteKeyUse } from "./last-used";
import { DomainError } from "@/lib/server/errors";
import { bearerKey } from "./authorization";

const SECRET_PREFIX = "cs_";

export interface KeyInfo {
  id: string;
  project: string;
  prefix: string;
  label: string | null;
  scope: TKeyScope;
  createdAt: string;
  revokedAt: string | null;
}

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * Creates a key for a project (and the project, if new). The secret is returned once; only its hash
 * is kept. The audit log records it as `actor`'s doing (the command line unless told otherwise).
 */
export async function createKey(
  db: Database,
  projectName: string,
  label?: string,
  options: { scope?: TKeyScope; actor?: Actor } = {},
): Promise<{ secret: string; key: KeyInfo }> {
  const { scope = "admin", actor = COMMAND_LINE } = options;
  const name = projectName.trim();
  if (!name) throw new DomainError("invalid", "a project name is required", "project");
  const secret = `${SECRET_PREFIX}${randomBytes(24).toString("base64url")}`;
  const project = await db.prisma.project.upsert({ where: { name }, create: { name }, update: {} });
  const row = await db.prisma.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: { projectId: project.id, prefix: secret.slice(0, 10), secretHash: hashSecret(secret), label: label ?? null, scope },
    });
    await recordAudit(tx, project.id, actor, {
      action: "key.create",
      target: { id: created.id, name: keyName(created) },
      after: { prefix: created.prefix, label: created.label, scope: created.scope },
    });
    return created;
  });
  return { secret, key: toInfo(row, name) };
}

export async function listKeys(db: Database, projectName?: string): Promise<KeyInfo[]> {
  const rows = await db.prisma.apiKey.findMany({
    where: projectName ? { project: { name: projectName } } : {},
    include: { project: { select: { name: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((row) => toInfo(row, row.project.name));
}

/** Revokes a key by its id or its prefix (the command line: any project's); revoking twice is harmless (and recorded once). */
export async function revokeKey(db: Database, idOrPrefix: string, actor: Actor = COMMAND_LINE): Promise<KeyInfo> {
  const matches = await db.prisma.apiKey.findMany({ where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }] } });
  if (matches.length === 0) throw new DomainError("not_found", `no key with id or prefix ${JSON.stringify(idOrPrefix)}`);
  if (matches.length > 1) throw new DomainError("conflict", `${matches.length} keys match ${JSON.stringify(idOrPrefix)}; use the key id`);
  const row = await revokeRow(db, matches[0], actor);
  return toInfo(row, row.project.name);
}

/** Revokes the key `row` if it is live, recording who did, in one transaction; the key as it is after. */
async function revokeRow(db: Database, key: { id: string; projectId: string; prefix: string; label: string | null }, actor: Actor) {
  return db.prisma.$transaction(async (tx) => {
    // Only the revoke that finds the key live changes it (and is recorded).
    const revokedAt = new Date();
    const { count } = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt } });
    if (count > 0) {
      await recordAudit(tx, key.projectId, actor, {
        action: "key.revoke",
        target: { id: key.id, name: keyName(key) },
        before: { revokedAt: null },
        after: { revokedAt: revokedAt.toISOString() },
      });
    }
    return tx.apiKey.findUniqueOrThrow({ where: { id: key.id }, include: { project: { select: { name: true } } } });
  });
}

/** The caller's project's keys for the keys page: live ones first, each newest first; `current` marks the caller's own. */
export async function listProjectKeys(db: Database, projectId: string, currentKeyId?: string): Promise<TApiKey[]> {
  const rows = await db.prisma.apiKey.findMany({
    where: { projectId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
  });
  return rows.map((row) => toApiKey(row, currentKeyId));
}

/** A new key of the caller's project with a name and a scope; its secret is in the answer only. */
export async function createProjectKey(db: Database, caller: Caller, input: TApiKeyCreate): Promise<{ key: TApiKey; secret: string }> {
  const { secret, key } = await createKey(db, caller.project, input.label, { scope: input.scope, actor: actorOf(caller) });
  // A new key has not been used yet.
  return { key: toApiKey({ ...key, createdAt: new Date(key.createdAt), lastUsedAt: null, revokedAt: null }, caller.key?.id), secret };
}

/** Revokes one of the caller's project's keys (404 for any other id); the caller's own key too, which ends its sessions. */
export async function revokeProjectKey(db: Database, caller: Caller, id: string): Promise<TApiKey> {
  const key = await db.prisma.apiKey.findFirst({ where: { id, projectId: caller.projectId } });
  if (!key) throw new DomainError("not_found", `no key ${JSON.stringify(id)} in this project`, "id");
  return toApiKey(await revokeRow(db, key, actorOf(caller)), caller.key?.id);
}

function toApiKey(
  row: {
    id: string;
    prefix: string;
    label: string | null;
    scope: string;
    createdAt: Date;
    lastUsedAt: Date | null;
    revokedAt: Date | null;
  },
  currentKeyId: string | undefined,
): TApiKey {
  return {
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    scope: row.scope as TKeyScope,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    current: row.id === currentKeyId,
  };
}

/**
 * Who is calling, in which project: a key (a Bearer key, or the key a browser session was opened
 * with) or a person signed in with a password or single sign-on (issue 25), never both.
 */
export interface Caller {
  projectId: string;
  project: string;
  /** The key; absent when a person calls. */
  key?: { id: string; prefix: string; label: string | null };
  /** The signed-in person; absent when a key calls. */
  person?: { id: string; name: string; email: string };
  /** How: a Bearer key, a browser session opened with a key, or a person's browser session. */
  via?: "key" | "session" | "person";
  /** What the key may do (lib/server/auth/access.ts); a caller made without scope or role is an admin's (the command line). */
  scope?: TKeyScope;
  /** The person's role in the project (lib/server/auth/access.ts). */
  role?: TPersonRole;
  /** The client's address when the caller came over HTTP (lib/server/auth/client-address.ts): the audit log records it. */
  address?: string;
}

/** Whose rows are "mine" in a read (comments, the key list, the member list): the caller's key or person. */
export interface Viewer {
  keyId?: string;
  personId?: string;
}

export function viewerOf(caller: Pick<Caller, "key" | "person">): Viewer {
  return { keyId: caller.key?.id, personId: caller.person?.id };
}

/** The project of an `Authorization: Bearer <key>` value (any case of the scheme); unauthorized for a missing, unknown or revoked key. */
export async function authenticate(db: Database, authorization: string | null): Promise<Caller> {
  return authenticateKey(db, bearerKey(authorization));
}

/** The project a key belongs to; unauthorized for a missing, unknown or revoked key. */
export async function authenticateKey(db: Database, secret: string | null): Promise<Caller> {
  if (!secret) throw new DomainError("unauthorized", "missing API key: send `Authorization: Bearer <secret key>`");
  // One statement (every API request runs it): the key and its project together, where the ORM
  // would read them in two round trips.
  const { rows } = await db.executeSql(
    `SELECT k."id", k."prefix", k."label", k."scope", k."revoked_at" IS NOT NULL AS "revoked", p."id" AS "projectId", p."name" AS "project"
       FROM "api_keys" k JOIN "projects" p ON p."id" = k."project_id"
      WHERE k."secret_hash" = $1`,
    [hashSecret(secret)],
  );
  const key = rows[0] as
    | { id: string; prefix: string; label: string | null; scope: TKeyScope; revoked: boolean; projectId: string; project: string }
    | undefined;
  if (!key || key.revoked) throw new DomainError("unauthorized", key ? "this API key was revoked" : "unknown API key");
  await noteKeyUse(db, key.id);
  return { projectId: key.projectId, project: key.project, key: { id: key.id, prefix: key.prefix, label: key.label }, scope: key.scope };
}

function toInfo(
  row: { id: string; prefix: string; label: string | null; scope: string; createdAt: Date; revokedAt: Date | null },
  project: string,
): KeyInfo {
  return {
    id: row.id,
    project,
    prefix: row.prefix,
    label: row.label,
    scope: row.scope as TKeyScope,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
