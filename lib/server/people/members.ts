import { createHash, randomBytes } from "node:crypto";
import type { TInvitation, TInvitationCreate, TMember, TPersonRole } from "@/lib/contracts";
import { actorOf, recordAudit, signedName, type Actor } from "@/lib/server/audit/audit-log";
import type { Caller, Viewer } from "@/lib/server/auth/keys";
import { FailureLimiter } from "@/lib/server/auth/rate-limit";
import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { isUniqueViolation } from "@/lib/server/db/errors";
import { DomainError } from "@/lib/server/errors";
import { peopleAuth, publicUrl } from "@/lib/server/auth/people-auth";

/**
 * Who belongs to a project, with which role, and how people join (issue 25): the first
 * administrator with the one-time setup link the server prints at start, everyone else with an
 * invitation link an admin makes (shown to the admin: no mail server is needed). Each link's token
 * is random, used once, and kept only as its sha256. Every change is in the audit log.
 */

export const INVITATION_DAYS = 7;
export const SETUP_LINK_HOURS = 24;
export const RESET_LINK_HOURS = 24;
/** Invitations an admin may make at once in a project, then one every INVITATION_REFILL_SECONDS. */
export const INVITATION_BURST = 20;
export const INVITATION_REFILL_SECONDS = 180;

const HOUR_MS = 60 * 60 * 1000;

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

const globalForInvitations = globalThis as unknown as { cuescopeInvitationLimits?: ConstructorParameters<typeof FailureLimiter>[4] };
/** Invitations per project (in-process, like the sign-in limiter). */
function invitationLimiter(): FailureLimiter {
  globalForInvitations.cuescopeInvitationLimits ??= new Map();
  return new FailureLimiter(INVITATION_BURST, INVITATION_REFILL_SECONDS, Date.now, 10_000, globalForInvitations.cuescopeInvitationLimits);
}

// ——— The first administrator ———

/** Whether the server was set up (a setup link was used). */
async function setUp(db: Database): Promise<boolean> {
  return (await db.prisma.oneTimeLink.count({ where: { purpose: "setup", usedAt: { not: null } } })) > 0;
}

/**
 * A new setup link until the server is set up (null after): the server prints it at start. Each
 * start replaces the last unused one, so only the newest printed link works.
 */
export async function createSetupLink(db: Database, now = new Date()): Promise<{ url: string; expiresAt: Date } | null> {
  if (await setUp(db)) return null;
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SETUP_LINK_HOURS * HOUR_MS);
  await db.prisma.$transaction([
    db.prisma.oneTimeLink.deleteMany({ where: { purpose: "setup", usedAt: null } }),
    db.prisma.oneTimeLink.create({ data: { tokenHash: hashLinkToken(token), purpose: "setup", createdAt: now, expiresAt } }),
  ]);
  return { url: `${publicUrl()}/setup?token=${token}`, expiresAt };
}

/** Why a setup link cannot be used, or null when it can. */
export async function setupLinkProblem(db: Database, token: string, now = new Date()): Promise<string | null> {
  const link = token ? await db.prisma.oneTimeLink.findUnique({ where: { tokenHash: hashLinkToken(token) } }) : null;
  if (!link || link.purpose !== "setup") return "This setup link is not known: use the newest link the server printed at start.";
  if (link.usedAt) return "This setup link was used already: sign in.";
  if (link.expiresAt <= now) return "This setup link expired: restart the server for a new one.";
  if (await setUp(db)) return "This server is set up already: sign in.";
  return null;
}

/** The project the first administrator gets when the server has none yet. */
export const FIRST_PROJECT = "default";

/**
 * Makes `personId` the administrator of every project (of a new `default` one when there is none),
 * using the setup link once (a second use, even at the same moment, finds it used and changes nothing).
 */
export async function claimSetup(db: Database, token: string, personId: string, address: string | null, now = new Date()): Promise<void> {
  const problem = await setupLinkProblem(db, token, now);
  if (problem) throw new DomainError("forbidden", problem);
  const person = await db.prisma.person.findUniqueOrThrow({ where: { id: personId } });
  await db.prisma.$transaction(async (tx) => {
    // A partial unique index (one used setup link) refuses a second claim, even of another link at the same moment.
    const count = await tx.oneTimeLink
      .updateMany({ where: { tokenHash: hashLinkToken(token), purpose: "setup", usedAt: null }, data: { usedAt: now } })
      .then((result) => result.count)
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return 0;
        throw error;
      });
    if (count === 0) throw new DomainError("forbidden", "This setup link was used already: sign in.");
    const actor = personActor(person, address);
    let projects = await tx.project.findMany({ select: { id: true } });
    if (projects.length === 0) projects = [await tx.project.create({ data: { name: FIRST_PROJECT }, select: { id: true } })];
    for (const project of projects) {
      await tx.projectMember.upsert({
        where: { projectId_personId: { projectId: project.id, personId } },
        create: { projectId: project.id, personId, role: "admin", createdAt: now },
        update: { role: "admin" },
      });
      await recordAudit(tx, project.id, actor, {
        action: "member.setup",
        target: { id: personId, name: person.name },
        after: { role: "admin", email: person.email },
      });
    }
  });
}

function personActor(person: { id: string; name: string }, address: string | null): Actor {
  return { kind: "person", keyId: null, personId: person.id, name: person.name, address };
}

// ——— Invitations ———

type InvitationRow = Prisma.InvitationGetPayload<object>;

function invitationStatus(row: InvitationRow, now: Date): TInvitation["status"] {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

function toInvitation(row: InvitationRow, acceptedBy: string | null, now = new Date()): TInvitation {
  return {
    id: row.id,
    role: row.role as TPersonRole,
    note: row.note,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: invitationStatus(row, now),
    acceptedBy,
  };
}

/** A new invitation link to the caller's project; the link is in the answer only. */
export async function createInvitation(
  db: Database,
  caller: Caller,
  input: TInvitationCreate,
  now = new Date(),
): Promise<{ invitation: TInvitation; link: string }> {
  const limiter = invitationLimiter();
  limiter.assertMayTry(caller.projectId, "invitations: too many made in this project");
  limiter.fail(caller.projectId);
  const token = newToken();
  const row = await db.prisma.$transaction(async (tx) => {
    const created = await tx.invitation.create({
      data: {
        projectId: caller.projectId,
        tokenHash: hashLinkToken(token),
        role: input.role,
        note: input.note || null,
        createdBy: signedName(caller),
        createdByPersonId: caller.person?.id ?? null,
        createdByKeyId: caller.person ? null : (caller.key?.id ?? null),
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * 24 * HOUR_MS),
      },
    });
    await recordAudit(tx, caller.projectId, actorOf(caller), {
      action: "invitation.create",
      target: { id: created.id, name: created.note },
      after: { role: created.role, note: created.note, expiresAt: created.expiresAt.toISOString() },
    });
    return created;
  });
  return { invitation: toInvitation(row, null, now), link: `${publicUrl()}/invite?token=${token}` };
}

/** Revokes a pending invitation of the caller's project (404 for another project's; revoking twice changes nothing). */
export async function revokeInvitation(db: Database, caller: Caller, id: string, now = new Date()): Promise<TInvitation> {
  const row = await db.prisma.invitation.findFirst({ where: { id, projectId: caller.projectId } });
  if (!row) throw new DomainError("not_found", `no invitation ${JSON.stringify(id)} in this project`, "id");
  const after = await db.prisma.$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({ where: { id, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    if (count > 0) {
      await recordAudit(tx, caller.projectId, actorOf(caller), {
        action: "invitation.revoke",
        target: { id, name: row.note },
        before: { status: invitationStatus(row, now) },
        after: { status: "revoked" },
      });
    }
    return tx.invitation.findUniqueOrThrow({ where: { id } });
  });
  return toInvitation(after, null, now);
}

export interface InvitationView {
  project: string;
  role: TPersonRole;
  createdBy: string;
  expiresAt: string;
}

/** What an invitation link offers, or why it cannot be used (the forms count a wrong one against the address). */
export async function readInvitation(
  db: Database,
  token: string,
  now = new Date(),
): Promise<{ ok: true; invitation: InvitationView } | { ok: false; problem: string }> {
  const row = token
    ? await db.prisma.invitation.findUnique({
        where: { tokenHash: hashLinkToken(token) },
        include: { project: { select: { name: true } } },
      })
    : null;
  if (!row) return { ok: false, problem: "This invitation link is not known: ask for a new one." };
  const status = invitationStatus(row, now);
  if (status !== "pending") {
    const why = { accepted: "was used already", revoked: "was revoked", expired: "expired" }[status];
    return { ok: false, problem: `This invitation link ${why}: ask ${row.createdBy} for a new one.` };
  }
  if (!(await makerMayInvite(db, row))) {
    return {
      ok: false,
      problem: `${row.createdBy}, who made this invitation link, may no longer invite: ask a current admin for a new one.`,
    };
  }
  return {
    ok: true,
    invitation: {
      project: row.project.name,
      role: row.role as TPersonRole,
      createdBy: row.createdBy,
      expiresAt: row.expiresAt.toISOString(),
    },
  };
}

/**
 * The person joins the invitation's project with its role, using the link once. A person who is
 * a member already keeps the higher of the two roles.
 */
export async function acceptInvitation(
  db: Database,
  token: string,
  personId: string,
  address: string | null,
  now = new Date(),
): Promise<{ projectId: string; project: string; role: TPersonRole }> {
  const read = await readInvitation(db, token, now);
  if (!read.ok) throw new DomainError("forbidden", read.problem);
  const person = await db.prisma.person.findUniqueOrThrow({ where: { id: personId } });
  return db.prisma.$transaction(async (tx) => {
    const invitation = await tx.invitation.findUniqueOrThrow({ where: { tokenHash: hashLinkToken(token) } });
    const { count } = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedBy: personId },
    });
    if (count === 0) throw new DomainError("forbidden", "This invitation link was used already: ask for a new one.");
    const existing = await tx.projectMember.findUnique({ where: { projectId_personId: { projectId: invitation.projectId, personId } } });
    const role = higherRole(existing?.role as TPersonRole | undefined, invitation.role as TPersonRole);
    await tx.projectMember.upsert({
      where: { projectId_personId: { projectId: invitation.projectId, personId } },
      create: { projectId: invitation.projectId, personId, role, createdAt: now },
      update: { role },
    });
    await recordAudit(tx, invitation.projectId, personActor(person, address), {
      action: "member.join",
      target: { id: personId, name: person.name },
      before: existing ? { role: existing.role } : null,
      after: { role, email: person.email, invitation: invitation.id },
    });
    const project = await tx.project.findUniqueOrThrow({ where: { id: invitation.projectId }, select: { name: true } });
    return { projectId: invitation.projectId, project: project.name, role };
  });
}

/** A link works only while its maker may still invite: a person still the project's admin, a key not revoked. */
async function makerMayInvite(db: Database, row: InvitationRow): Promise<boolean> {
  if (row.createdByPersonId) {
    const member = await db.prisma.projectMember.findUnique({
      where: { projectId_personId: { projectId: row.projectId, personId: row.createdByPersonId } },
    });
    return member?.role === "admin";
  }
  if (row.createdByKeyId) {
    const key = await db.prisma.apiKey.findUnique({ where: { id: row.createdByKeyId } });
    return key !== null && key.revokedAt === null && key.scope === "admin";
  }
  return true;
}

const RANK: Record<TPersonRole, number> = { viewer: 0, member: 1, admin: 2 };

function higherRole(a: TPersonRole | undefined, b: TPersonRole): TPersonRole {
  return a !== undefined && RANK[a] > RANK[b] ? a : b;
}

// ——— Members ———

/** The project's members by name, and its invitations newest first (the latest 100). */
export async function listMembers(
  db: Database,
  projectId: string,
  viewer: Viewer,
  now = new Date(),
): Promise<{ members: TMember[]; invitations: TInvitation[] }> {
  const [members, invitations] = await Promise.all([
    db.prisma.projectMember.findMany({
      where: { projectId },
      include: { person: { include: { accounts: { select: { providerId: true } } } } },
      orderBy: [{ person: { name: "asc" } }, { personId: "asc" }],
    }),
    db.prisma.invitation.findMany({ where: { projectId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 100 }),
  ]);
  const names = new Map(members.map((m) => [m.personId, m.person.name]));
  const missing = invitations.map((i) => i.acceptedBy).filter((id): id is string => id !== null && !names.has(id));
  if (missing.length > 0) {
    for (const person of await db.prisma.person.findMany({ where: { id: { in: missing } }, select: { id: true, name: true } }))
      names.set(person.id, person.name);
  }
  return {
    members: members.map((m) => ({
      personId: m.personId,
      name: m.person.name,
      email: m.person.email,
      role: m.role as TPersonRole,
      signIn: [...new Set(m.person.accounts.map((a) => (a.providerId === "credential" ? "password" : a.providerId)))].sort(),
      joinedAt: m.createdAt.toISOString(),
      current: m.personId === viewer.personId,
    })),
    invitations: invitations.map((row) => toInvitation(row, row.acceptedBy ? (names.get(row.acceptedBy) ?? null) : null, now)),
  };
}

async function findMember(client: Prisma.TransactionClient, projectId: string, personId: string) {
  const member = await client.projectMember.findUnique({
    where: { projectId_personId: { projectId, personId } },
    include: { person: { select: { name: true, email: true } } },
  });
  if (!member) throw new DomainError("not_found", `no member ${JSON.stringify(personId)} in this project`, "personId");
  return member;
}

/** The project must keep an admin: refuses to demote or remove its last one. */
async function assertAnotherAdmin(client: Prisma.TransactionClient, projectId: string, personId: string): Promise<void> {
  const others = await client.projectMember.count({ where: { projectId, role: "admin", personId: { not: personId } } });
  if (others === 0) throw new DomainError("conflict", "the project's last admin cannot lose the admin role: make someone else admin first");
}

/**
 * Changes a member's role (no-op: not recorded). The project row is locked first, so two admins
 * demoting each other at once cannot leave the project without one.
 */
export async function changeRole(db: Database, caller: Caller, personId: string, role: TPersonRole): Promise<TMember> {
  await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "projects" WHERE "id" = ${caller.projectId} FOR NO KEY UPDATE`;
    const member = await findMember(tx, caller.projectId, personId);
    if (member.role === role) return;
    if (member.role === "admin") await assertAnotherAdmin(tx, caller.projectId, personId);
    await tx.projectMember.update({ where: { projectId_personId: { projectId: caller.projectId, personId } }, data: { role } });
    await recordAudit(tx, caller.projectId, actorOf(caller), {
      action: "member.role",
      target: { id: personId, name: member.person.name },
      before: { role: member.role },
      after: { role },
    });
  });
  const { members } = await listMembers(db, caller.projectId, { personId: caller.person?.id });
  return members.find((m) => m.personId === personId)!;
}

/** Removes a member from the project (their account stays, with their other projects). */
export async function removeMember(db: Database, caller: Caller, personId: string): Promise<{ personId: string; removed: true }> {
  await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "projects" WHERE "id" = ${caller.projectId} FOR NO KEY UPDATE`;
    const member = await findMember(tx, caller.projectId, personId);
    if (member.role === "admin") await assertAnotherAdmin(tx, caller.projectId, personId);
    await tx.projectMember.delete({ where: { projectId_personId: { projectId: caller.projectId, personId } } });
    await recordAudit(tx, caller.projectId, actorOf(caller), {
      action: "member.remove",
      target: { id: personId, name: member.person.name },
      before: { role: member.role, email: member.person.email },
    });
  });
  return { personId, removed: true };
}

// ——— Password reset ———

/**
 * Why the caller may not reset the member's password, or null. Whoever sets a person's password
 * holds all their projects: so only an admin of every project the member belongs to may, and not
 * for a person who signs in with single sign-on only (their provider decides who they are).
 */
async function resetRefusal(client: Prisma.TransactionClient, caller: Caller, personId: string): Promise<string | null> {
  const theirs = await client.projectMember.findMany({ where: { personId }, select: { projectId: true } });
  const mine = caller.person
    ? await client.projectMember.findMany({ where: { personId: caller.person.id, role: "admin" }, select: { projectId: true } })
    : [{ projectId: caller.projectId }];
  const administered = new Set(mine.map((m) => m.projectId));
  if (theirs.some((m) => !administered.has(m.projectId))) {
    return "they also belong to projects you do not administer: an admin of all of them issues the link";
  }
  const password = await client.personAccount.count({ where: { userId: personId, providerId: "credential" } });
  if (password === 0) return "they sign in with single sign-on only: their provider resets their sign-in";
  return null;
}

/** A one-time password reset link for a member of the caller's project, shown to the admin; it replaces their unused ones. */
export async function issueResetLink(
  db: Database,
  caller: Caller,
  personId: string,
  now = new Date(),
): Promise<{ link: string; expiresAt: string }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + RESET_LINK_HOURS * HOUR_MS);
  await db.prisma.$transaction(async (tx) => {
    const member = await findMember(tx, caller.projectId, personId);
    const refused = await resetRefusal(tx, caller, personId);
    if (refused) throw new DomainError("forbidden", `no reset link for ${member.person.name}: ${refused}`, "personId");
    await tx.oneTimeLink.deleteMany({ where: { purpose: "password_reset", personId, usedAt: null } });
    await tx.oneTimeLink.create({
      data: {
        tokenHash: hashLinkToken(token),
        purpose: "password_reset",
        personId,
        createdBy: signedName(caller),
        createdAt: now,
        expiresAt,
      },
    });
    await recordAudit(tx, caller.projectId, actorOf(caller), {
      action: "member.resetLink",
      target: { id: personId, name: member.person.name },
      after: { expiresAt: expiresAt.toISOString() },
    });
  });
  return { link: `${publicUrl()}/reset?token=${token}`, expiresAt: expiresAt.toISOString() };
}

/** Whose password a reset link sets, or why it cannot be used. */
export async function readResetLink(
  db: Database,
  token: string,
  now = new Date(),
): Promise<{ ok: true; name: string; email: string } | { ok: false; problem: string }> {
  const link = token ? await db.prisma.oneTimeLink.findUnique({ where: { tokenHash: hashLinkToken(token) } }) : null;
  if (!link || link.purpose !== "password_reset" || !link.personId)
    return { ok: false, problem: "This reset link is not known: ask an admin for a new one." };
  if (link.usedAt) return { ok: false, problem: "This reset link was used already: ask an admin for a new one." };
  if (link.expiresAt <= now) return { ok: false, problem: "This reset link expired: ask an admin for a new one." };
  const person = await db.prisma.person.findUnique({ where: { id: link.personId } });
  if (!person) return { ok: false, problem: "This reset link's account no longer exists." };
  return { ok: true, name: person.name, email: person.email };
}

/**
 * Sets the password of the link's person (hashed by better-auth), uses the link once, and ends
 * every session of theirs: whoever knew the old password is signed out.
 */
export async function resetPassword(
  db: Database,
  token: string,
  password: string,
  address: string | null,
  now = new Date(),
): Promise<{ email: string }> {
  const read = await readResetLink(db, token, now);
  if (!read.ok) throw new DomainError("forbidden", read.problem);
  const context = await (await peopleAuth(db)).$context;
  // Hashed before the link is used, so a failure here leaves the link usable.
  const hash = await context.password.hash(password);
  const person = await db.prisma.$transaction(async (tx) => {
    const { count } = await tx.oneTimeLink.updateMany({
      where: { tokenHash: hashLinkToken(token), purpose: "password_reset", usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count === 0) throw new DomainError("forbidden", "This reset link was used already: ask an admin for a new one.");
    const link = await tx.oneTimeLink.findUniqueOrThrow({ where: { tokenHash: hashLinkToken(token) } });
    const person = await tx.person.findUniqueOrThrow({ where: { id: link.personId! } });
    const { count: updated } = await tx.personAccount.updateMany({
      where: { userId: person.id, providerId: "credential" },
      data: { password: hash, updatedAt: now },
    });
    if (updated === 0)
      throw new DomainError("forbidden", "This account signs in with single sign-on only: its provider resets its sign-in.");
    for (const { projectId } of await tx.projectMember.findMany({ where: { personId: person.id }, select: { projectId: true } })) {
      await recordAudit(tx, projectId, personActor(person, address), {
        action: "member.passwordReset",
        target: { id: person.id, name: person.name },
        after: { issuedBy: link.createdBy },
      });
    }
    return person;
  });
  // Whoever knew the old password is signed out everywhere.
  await context.internalAdapter.deleteUserSessions(person.id);
  return { email: person.email };
}
