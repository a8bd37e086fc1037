import {
  queryInstantDate,
  type TAuditAction,
  type TAuditEntry,
  type TAuditList,
  type TAuditQuery,
  type TAuditTarget,
} from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { DomainError } from "@/lib/server/errors";
import { streamedDownload } from "@/lib/server/export/streamed-download";

/**
 * The audit log (migration 20270101000000_audit_log): who changed what, when, from where, and what
 * it was before and after. Each change records its entry with `recordAudit` on the client of its own
 * transaction, so the change and its entry commit together or not at all. Entries are never changed
 * (a trigger refuses it).
 */

/** Who made a change: how they were signed in (a key, a key's browser session, a person, the command line), from which address. */
export interface Actor {
  kind: "key" | "session" | "person" | "cli";
  keyId: string | null;
  personId: string | null;
  name: string;
  address: string | null;
}

/** The server's command line (`npm run keys`, scripts that load data): no key, no address. */
export const COMMAND_LINE: Actor = { kind: "cli", keyId: null, personId: null, name: "command line", address: null };

/** A key's name in the log: its label, or `key <prefix>…`. */
export function keyName(key: { prefix: string; label: string | null }): string {
  return key.label ?? `key ${key.prefix}…`;
}

/** What actorOf needs of an authenticated caller (lib/server/auth/keys.ts's Caller). */
export interface Signed {
  key?: { id: string; prefix: string; label: string | null };
  person?: { id: string; name: string; email: string };
  via?: "key" | "session" | "person";
  address?: string;
}

/** The name a caller's changes and comments show: a person's name, else the key's. */
export function signedName(caller: Signed): string {
  if (caller.person) return caller.person.name;
  if (caller.key) return keyName(caller.key);
  return COMMAND_LINE.name;
}

/** The actor of an authenticated caller (a key, its browser session, or a person), with the address the request came from. */
export function actorOf(caller: Signed): Actor {
  if (caller.person) {
    return { kind: "person", keyId: null, personId: caller.person.id, name: caller.person.name, address: caller.address ?? null };
  }
  if (!caller.key) return COMMAND_LINE;
  return {
    kind: caller.via === "session" ? "session" : "key",
    keyId: caller.key.id,
    personId: null,
    name: keyName(caller.key),
    address: caller.address ?? null,
  };
}

/** What a transaction's client (or the database's) needs to record an entry. */
export interface AuditWriter {
  auditEntry: { create(args: { data: Prisma.AuditEntryUncheckedCreateInput }): Promise<unknown> };
}

export interface AuditChange {
  action: TAuditAction;
  target: { id: string; name?: string | null };
  before?: Prisma.InputJsonValue | null;
  after?: Prisma.InputJsonValue | null;
}

/** Records one change, on `client`: the transaction that makes the change, so both commit or neither does. */
export async function recordAudit(client: AuditWriter, projectId: string, actor: Actor, change: AuditChange): Promise<void> {
  await client.auditEntry.create({
    data: {
      projectId,
      action: change.action,
      targetKind: targetOf(change.action),
      targetId: change.target.id,
      targetName: change.target.name ?? null,
      actorKind: actor.kind,
      actorKeyId: actor.keyId,
      actorPersonId: actor.personId,
      actorName: actor.name,
      address: actor.address,
      before: change.before ?? undefined,
      after: change.after ?? undefined,
    },
  });
}

function targetOf(action: TAuditAction): TAuditTarget {
  return action.slice(0, action.indexOf(".")) as TAuditTarget;
}

type AuditRow = Prisma.AuditEntryGetPayload<object>;

/** A page of the project's log, newest first, over the query's filters. */
export async function listAudit(db: Database, projectId: string, query: TAuditQuery): Promise<TAuditList> {
  const where: Prisma.AuditEntryWhereInput = {
    projectId,
    ...(query.action ? { action: query.action } : {}),
    ...(query.target ? { targetKind: query.target } : {}),
    ...(query.targetId ? { targetId: query.targetId } : {}),
    ...(query.actorKeyId ? { actorKeyId: query.actorKeyId } : {}),
    ...(query.actorPersonId ? { actorPersonId: query.actorPersonId } : {}),
    ...(query.from || query.to
      ? { at: { ...(query.from ? { gte: queryInstantDate(query.from) } : {}), ...(query.to ? { lt: queryInstantDate(query.to) } : {}) } }
      : {}),
    ...(query.cursor ? { seq: { lt: decodeCursor(query.cursor) } } : {}),
  };
  const rows = await db.prisma.auditEntry.findMany({ where, orderBy: { seq: "desc" }, take: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    nextCursor: rows.length > query.limit && last ? Buffer.from(String(last.seq)).toString("base64url") : null,
  };
}

/** The log over the query's filters as a streamed CSV or JSON download, a page at a time. */
export async function exportAudit(db: Database, projectId: string, query: TAuditQuery, format: "csv" | "json"): Promise<Response> {
  const page = { ...query, cursor: undefined, limit: 200 };
  const read = async (cursor?: string) => {
    const list = await listAudit(db, projectId, { ...page, cursor });
    return { rows: list.entries, nextCursor: list.nextCursor };
  };
  return streamedDownload<TAuditEntry>({
    format,
    first: await read(),
    next: read,
    csvColumns: AUDIT_CSV_COLUMNS,
    csvCells: (e) => [
      e.id,
      e.at,
      e.action,
      e.target.kind,
      e.target.id,
      e.target.name ?? "",
      e.actor.kind,
      e.actor.keyId ?? "",
      e.actor.personId ?? "",
      e.actor.name,
      e.address ?? "",
      e.before === null ? "" : JSON.stringify(e.before),
      e.after === null ? "" : JSON.stringify(e.after),
    ],
    filename: "cuescope-audit",
    label: "audit export",
  });
}

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "action",
  "target kind",
  "target id",
  "target name",
  "actor kind",
  "actor key id",
  "actor person id",
  "actor",
  "address",
  "before (JSON)",
  "after (JSON)",
] as const;

function decodeCursor(text: string): bigint {
  const decoded = Buffer.from(text, "base64url").toString("utf8");
  if (!/^[1-9]\d{0,18}$/.test(decoded)) {
    throw new DomainError("invalid", "query.cursor: not a cursor this API gave out: use the nextCursor of the previous page", "cursor");
  }
  return BigInt(decoded);
}

function toEntry(row: AuditRow): TAuditEntry {
  return {
    id: String(row.seq),
    at: row.at.toISOString(),
    action: row.action as TAuditAction,
    target: { kind: row.targetKind as TAuditTarget, id: row.targetId, name: row.targetName },
    actor: { kind: row.actorKind as Actor["kind"], keyId: row.actorKeyId, personId: row.actorPersonId, name: row.actorName },
    address: row.address,
    before: row.before ?? null,
    after: row.after ?? null,
  };
}
