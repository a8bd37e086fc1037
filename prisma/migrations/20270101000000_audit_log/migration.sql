-- The audit log (issue 25): one row per state change a team cares about — copy and policy versions
-- and the project's defaults, experiments, keys, comment deletion — written in the same transaction
-- as the change it records (lib/server/audit/audit-log.ts), so a change without its row, or a row
-- without its change, cannot be committed.
--
-- Append-only: a trigger refuses every UPDATE, and every DELETE but the one a deleted project
-- cascades to its rows (its project row is already gone when the cascade runs); TRUNCATE is refused
-- too. The refusal's SQLSTATE is CSA01 (class CS: Cuescope's own).
--
-- `seq` orders the log (keyset pages, newest first); the key and every index lead with project_id
-- (docs/deployment.md, "Citus").
--
-- Hand-written SQL (see README, "Migrations"); the trigger is not in prisma/schema.prisma.

CREATE TABLE "audit_log" (
  "seq"          BIGSERIAL NOT NULL,
  "project_id"   TEXT NOT NULL,
  "at"           TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "action"       TEXT NOT NULL,
  "target_kind"  TEXT NOT NULL,
  "target_id"    TEXT NOT NULL,
  "target_name"  TEXT,
  "actor_kind"   TEXT NOT NULL,
  "actor_key_id" TEXT,
  "actor_name"   TEXT NOT NULL,
  "address"      TEXT,
  "before"       JSONB,
  "after"        JSONB,
  CONSTRAINT "audit_log_pkey" PRIMARY KEY ("project_id", "seq"),
  CONSTRAINT "audit_log_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "audit_log_action_idx" ON "audit_log" ("project_id", "action", "seq");
CREATE INDEX "audit_log_target_idx" ON "audit_log" ("project_id", "target_kind", "target_id", "seq");
CREATE INDEX "audit_log_actor_idx" ON "audit_log" ("project_id", "actor_key_id", "seq");
CREATE INDEX "audit_log_at_idx" ON "audit_log" ("project_id", "at");

CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM "projects" WHERE "id" = OLD."project_id") THEN
      RETURN OLD; -- the project was deleted: its log goes with it
    END IF;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only: % is refused', TG_OP
    USING ERRCODE = 'CSA01';
END
$$;

CREATE TRIGGER "audit_log_append_only"
  BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();

CREATE TRIGGER "audit_log_no_truncate"
  BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
