import { createHash, randomBytes } from "node:crypto";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import type { TKeyScope } from "@/lib/contracts";
import type { Caller } from "./keys";
import { noteKeyUse } from "./last-used";

/**
 * Browser sessions (issue #10). Signing in (with a key, or the loopback-only demo button) creates a
 * row here and sets a cookie holding a random 32-byte token; only the token's sha256 is stored.
 * A session:
 * - lasts SESSION_DAYS from sign-in, FIXED (not sliding: using it does not extend it);
 * - ends at sign-out (the row is revoked, the cookie cleared);
 * - belongs to the API key it was made with (the demo button uses the demo key): it stops working
 *   as soon as that key is revoked.
 * API keys stay for agents and the API (`Authorization: Bearer`); the cookie never holds a key.
 */
export const SESSION_COOKIE = "cuescope_session";
/** The cookie of earlier versions, which held the raw API key: no longer accepted, cleared at sign-in/out. */
export const LEGACY_KEY_COOKIE = "cuescope_key";
export const SESSION_DAYS = 7;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

export function sessionCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: "lax" as const, secure, path: "/", maxAge: SESSION_MS / 1000 };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface NewSession {
  token: string;
  expiresAt: Date;
}

/** Opens a session for the caller's key. The token is returned once, for the cookie. */
export async function createSession(db: Database, caller: Caller, options: { demo?: boolean; now?: Date } = {}): Promise<NewSession> {
  if (!caller.key) throw new Error("a key session is opened with a key");
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_MS);
  await db.prisma.session.create({
    data: {
      projectId: caller.projectId,
      apiKeyId: caller.key.id,
      tokenHash: hashToken(token),
      demo: options.demo ?? false,
      createdAt: now,
      expiresAt,
    },
  });
  // Housekeeping: rows that can never authenticate again go after a day.
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  await db.prisma.session.deleteMany({ where: { OR: [{ expiresAt: { lt: dayAgo } }, { revokedAt: { lt: dayAgo } }] } });
  return { token, expiresAt };
}

/** The caller a session token stands for; unauthorized when unknown, expired, signed out or its key revoked. */
export async function authenticateSession(db: Database, token: string, now = new Date()): Promise<Caller> {
  // One statement for the session, its key and its project: every page and API request signed in
  // with a cookie asks this first (Prisma's include would make it three).
  const [session] = token
    ? await db.prisma.$queryRaw<SessionRow[]>`
        SELECT s."expires_at" AS "expiresAt", s."revoked_at" AS "revokedAt",
               k."id" AS "keyId", k."prefix", k."label", k."scope", k."revoked_at" AS "keyRevokedAt",
               p."id" AS "projectId", p."name" AS "project"
          FROM "sessions" s
          JOIN "api_keys" k ON k."id" = s."api_key_id"
          JOIN "projects" p ON p."id" = s."project_id"
         WHERE s."token_hash" = ${hashToken(token)}`
    : [];
  const problem = !session
    ? "unknown session"
    : session.revokedAt
      ? "this session was signed out"
      : session.expiresAt <= now
        ? "this session expired"
        : session.keyRevokedAt
          ? "the API key this session was opened with was revoked"
          : null;
  if (!session || problem) throw new DomainError("unauthorized", `${problem}: sign in again`);
  await noteKeyUse(db, session.keyId, now);
  return {
    projectId: session.projectId,
    project: session.project,
    key: { id: session.keyId, prefix: session.prefix, label: session.label },
    scope: session.scope as TKeyScope,
    via: "session",
  };
}

interface SessionRow {
  expiresAt: Date;
  revokedAt: Date | null;
  keyId: string;
  prefix: string;
  label: string | null;
  scope: string;
  keyRevokedAt: Date | null;
  projectId: string;
  project: string;
}

/** Ends a session (sign-out); an unknown or already ended token is harmless. */
export async function revokeSession(db: Database, token: string): Promise<void> {
  if (!token) return;
  await db.prisma.session.updateMany({ where: { tokenHash: hashToken(token), revokedAt: null }, data: { revokedAt: new Date() } });
}

/** The session token in a Cookie header, if any. */
export function sessionTokenFromCookieHeader(cookie: string | null): string | null {
  const match = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`).exec(cookie ?? "");
  if (!match) return null;
  try {
    return decodeURIComponent(match[1].trim()) || null;
  } catch {
    return null;
  }
}
