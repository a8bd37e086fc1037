-- The project in every key (issue 12): the schema a PostgreSQL distributed by project (Citus,
-- distribution column project_id) can take as it is. Every unique key and every foreign key of a
-- table that belongs to a project includes project_id, so each of them can be checked inside one
-- shard. projects, api_keys and sessions stay as they are: they are small and looked up before the
-- project is known (a key or a session token), so on Citus they are reference tables, copied to
-- every node (docs/deployment.md, "Citus"). lib/server/db/keys.test.ts reads the catalog and fails
-- for a unique index or foreign key of any other table that leaves project_id out.
--
-- Works on a populated database: no row is rewritten except run_decisions, which gets project_id
-- from its run. Keys and indexes are rebuilt, so this takes as long as indexing the events once.

-- The children's foreign keys go first: they hang on runs' primary key.
ALTER TABLE "events" DROP CONSTRAINT "events_run_pk_fkey";
ALTER TABLE "run_decisions" DROP CONSTRAINT "run_decisions_run_pk_fkey";

-- runs: a run is (project, id); the run id of the agent was already unique per project.
ALTER TABLE "runs" DROP CONSTRAINT "runs_pkey";
ALTER TABLE "runs" ADD CONSTRAINT "runs_pkey" PRIMARY KEY ("project_id", "id");

-- events: the arrival sequence stays the order; its key is per project.
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY ("project_id", "seq");
DROP INDEX "events_run_pk_turn_idx";
CREATE INDEX "events_project_id_run_pk_turn_idx" ON "events" ("project_id", "run_pk", "turn");
-- One run.started per run (20261201000000_one_run_started_per_run), now keyed by the run's full key.
-- A partial unique index that prisma/schema.prisma cannot express: it lives in migrations only.
DROP INDEX "events_one_run_started_per_run";
CREATE UNIQUE INDEX "events_one_run_started_per_run" ON "events" ("project_id", "run_pk") WHERE "type" = 'run.started';
-- Ingest always stored an event under its run's project; a row that is not would fail here, naming it.
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "runs" ("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- run_decisions: gets the project of its run.
ALTER TABLE "run_decisions" ADD COLUMN "project_id" TEXT;
UPDATE "run_decisions" AS d SET "project_id" = r."project_id" FROM "runs" AS r WHERE r."id" = d."run_pk";
-- A cache entry whose run is gone (none can be: the foreign key cascaded) is derived data anyway.
DELETE FROM "run_decisions" WHERE "project_id" IS NULL;
ALTER TABLE "run_decisions" ALTER COLUMN "project_id" SET NOT NULL;
ALTER TABLE "run_decisions" DROP CONSTRAINT "run_decisions_pkey";
ALTER TABLE "run_decisions" ADD CONSTRAINT "run_decisions_pkey" PRIMARY KEY ("project_id", "run_pk");
ALTER TABLE "run_decisions" ADD CONSTRAINT "run_decisions_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "runs" ("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Versions and replays: their ids are unique per project.
ALTER TABLE "copy_versions" DROP CONSTRAINT "copy_versions_pkey";
ALTER TABLE "copy_versions" ADD CONSTRAINT "copy_versions_pkey" PRIMARY KEY ("project_id", "id");
ALTER TABLE "policy_versions" DROP CONSTRAINT "policy_versions_pkey";
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_pkey" PRIMARY KEY ("project_id", "id");
ALTER TABLE "replay_jobs" DROP CONSTRAINT "replay_jobs_pkey";
ALTER TABLE "replay_jobs" ADD CONSTRAINT "replay_jobs_pkey" PRIMARY KEY ("project_id", "id");
