-- People (issue 25): accounts with a password or single sign-on, kept by better-auth
-- (lib/server/people/auth.ts), and their roles in projects. API keys and their browser sessions stay
-- as they were: an agent's key and the demo button work as before.
--
-- `people`, `person_sessions`, `person_accounts` and `verifications` are better-auth's tables (its
-- user, session, account and verification models, renamed). A password lives in `person_accounts`
-- (provider `credential`), hashed by the library's scrypt; a single sign-on identity is an account
-- row of its provider. A session row holds its token; the browser's cookie holds the token, signed.

CREATE TABLE "people" (
  "id"             TEXT NOT NULL PRIMARY KEY,
  "name"           TEXT NOT NULL,
  "email"          TEXT NOT NULL,
  "email_verified" BOOLEAN NOT NULL DEFAULT false,
  "image"          TEXT,
  "created_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"     TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "people_email_key" ON "people" ("email");

CREATE TABLE "person_sessions" (
  "id"          TEXT NOT NULL PRIMARY KEY,
  "person_id"   TEXT NOT NULL REFERENCES "people" ("id") ON DELETE CASCADE,
  "token"       TEXT NOT NULL,
  "expires_at"  TIMESTAMPTZ(3) NOT NULL,
  "ip_address"  TEXT,
  "user_agent"  TEXT,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "person_sessions_token_key" ON "person_sessions" ("token");
CREATE INDEX "person_sessions_person_id_idx" ON "person_sessions" ("person_id");

CREATE TABLE "person_accounts" (
  "id"                       TEXT NOT NULL PRIMARY KEY,
  "person_id"                TEXT NOT NULL REFERENCES "people" ("id") ON DELETE CASCADE,
  "account_id"               TEXT NOT NULL,
  "provider_id"              TEXT NOT NULL,
  "access_token"             TEXT,
  "refresh_token"            TEXT,
  "id_token"                 TEXT,
  "access_token_expires_at"  TIMESTAMPTZ(3),
  "refresh_token_expires_at" TIMESTAMPTZ(3),
  "scope"                    TEXT,
  "password"                 TEXT,
  "created_at"               TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"               TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "person_accounts_person_id_idx" ON "person_accounts" ("person_id");
CREATE UNIQUE INDEX "person_accounts_provider_account_key" ON "person_accounts" ("provider_id", "account_id");

CREATE TABLE "verifications" (
  "id"          TEXT NOT NULL PRIMARY KEY,
  "identifier"  TEXT NOT NULL,
  "value"       TEXT NOT NULL,
  "expires_at"  TIMESTAMPTZ(3) NOT NULL,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "verifications_identifier_idx" ON "verifications" ("identifier");

-- A person's role in a project: viewer (reads), member (also comments, saved views, drafts,
-- replays), admin (also defaults, experiments, members, keys). lib/server/auth/access.ts maps each
-- role to what endpoints it may call, as it does a key's scope.
CREATE TABLE "project_members" (
  "project_id"  TEXT NOT NULL REFERENCES "projects" ("id") ON DELETE CASCADE,
  "person_id"   TEXT NOT NULL REFERENCES "people" ("id") ON DELETE CASCADE,
  "role"        TEXT NOT NULL CHECK ("role" IN ('viewer', 'member', 'admin')),
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("project_id", "person_id")
);
CREATE INDEX "project_members_person_id_idx" ON "project_members" ("person_id");

-- An invitation link to join a project with a role (shown to the inviter; no mail server). Only the
-- token's sha256 is kept; a link works once, until it expires or is revoked.
CREATE TABLE "invitations" (
  "id"           TEXT NOT NULL PRIMARY KEY,
  "project_id"   TEXT NOT NULL REFERENCES "projects" ("id") ON DELETE CASCADE,
  "token_hash"   TEXT NOT NULL,
  "role"         TEXT NOT NULL CHECK ("role" IN ('viewer', 'member', 'admin')),
  "note"         TEXT,
  "created_by"   TEXT NOT NULL,
  -- Who made it (a person or a key): a link is refused once its maker may no longer invite.
  "created_by_person_id" TEXT,
  "created_by_key_id"    TEXT,
  "created_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at"   TIMESTAMPTZ(3) NOT NULL,
  "accepted_at"  TIMESTAMPTZ(3),
  "accepted_by"  TEXT REFERENCES "people" ("id") ON DELETE SET NULL,
  "revoked_at"   TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations" ("token_hash");
CREATE INDEX "invitations_project_id_idx" ON "invitations" ("project_id", "created_at");

-- One-time links that are not a project's: the first administrator's setup link (printed by the
-- server at start while nobody has an account) and an admin-issued password reset. Only the
-- token's sha256 is kept; a link works once, until it expires.
CREATE TABLE "one_time_links" (
  "token_hash"  TEXT NOT NULL PRIMARY KEY,
  "purpose"     TEXT NOT NULL CHECK ("purpose" IN ('setup', 'password_reset')),
  "person_id"   TEXT REFERENCES "people" ("id") ON DELETE CASCADE,
  "created_by"  TEXT,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at"  TIMESTAMPTZ(3) NOT NULL,
  "used_at"     TIMESTAMPTZ(3)
);
-- The server is set up once: a second setup link used, even at the same moment, is refused here.
CREATE UNIQUE INDEX "one_time_links_setup_once" ON "one_time_links" ("purpose") WHERE "purpose" = 'setup' AND "used_at" IS NOT NULL;

-- Comments and the audit log name a person when a person acted. Today's rows keep their key
-- (author_key_id, actor_key_id) and their name: nothing is rewritten, nothing is lost.
ALTER TABLE "comments" ALTER COLUMN "author_key_id" DROP NOT NULL;
ALTER TABLE "comments" ADD COLUMN "author_person_id" TEXT;
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_check" CHECK ("author_key_id" IS NOT NULL OR "author_person_id" IS NOT NULL);
ALTER TABLE "audit_log" ADD COLUMN "actor_person_id" TEXT;
CREATE INDEX "audit_log_actor_person_idx" ON "audit_log" ("project_id", "actor_person_id", "seq");

-- Settings the server makes for itself once: the secret that signs people's session cookies
-- (unless CUESCOPE_AUTH_SECRET gives one), so every process of a deployment signs alike.
CREATE TABLE "server_settings" (
  "name"        TEXT NOT NULL PRIMARY KEY,
  "value"       TEXT NOT NULL,
  "created_at"  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
