-- Copy and policy experiments (contract §10, docs/contract/experiments.md): an experiment of a
-- project with two or more arms, each a saved copy version, policy version, both or neither, with a
-- weight and a planned number of runs. A run's run.started may name an experiment and arm; the runs
-- table keeps them as sent (ingest), for the runs list's filters and the results.

-- AlterTable
ALTER TABLE "runs" ADD COLUMN "experiment_id" TEXT, ADD COLUMN "experiment_arm" TEXT;
CREATE INDEX "runs_project_id_experiment_id_experiment_arm_idx" ON "runs" ("project_id", "experiment_id", "experiment_arm");

-- Runs stored before this migration: their run.started may already name one (unknown properties
-- were ignored, not dropped).
UPDATE "runs" AS r SET "experiment_id" = e."body"->'experiment'->>'id', "experiment_arm" = e."body"->'experiment'->>'arm'
  FROM "events" e
 WHERE e."project_id" = r."project_id" AND e."run_pk" = r."id" AND e."type" = 'run.started'
   AND jsonb_typeof(e."body"->'experiment') = 'object';

-- CreateTable
CREATE TABLE "experiments" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "note" TEXT,
    "key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("project_id", "id"),
    CONSTRAINT "experiments_status_check" CHECK ("status" IN ('draft', 'running', 'stopped')),
    CONSTRAINT "experiments_key_check" CHECK ("key" IN ('requests', 'time', 'context', 'edits', 'review'))
);
CREATE UNIQUE INDEX "experiments_project_id_name_key" ON "experiments" ("project_id", "name");
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "experiment_arms" (
    "project_id" TEXT NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "weight" INTEGER NOT NULL,
    "planned_runs" INTEGER NOT NULL,
    "copy_version_id" TEXT,
    "policy_version_id" TEXT,

    CONSTRAINT "experiment_arms_pkey" PRIMARY KEY ("project_id", "experiment_id", "position"),
    CONSTRAINT "experiment_arms_weight_check" CHECK ("weight" >= 0),
    CONSTRAINT "experiment_arms_planned_runs_check" CHECK ("planned_runs" >= 1)
);
CREATE UNIQUE INDEX "experiment_arms_project_id_experiment_id_name_key" ON "experiment_arms" ("project_id", "experiment_id", "name");
ALTER TABLE "experiment_arms" ADD CONSTRAINT "experiment_arms_project_id_experiment_id_fkey" FOREIGN KEY ("project_id", "experiment_id") REFERENCES "experiments"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
