-- Trends (/trends, GET /api/v1/trends): each run's counts per 15-minute UTC bucket of its turns'
-- times, written by the run's rebuild in the transaction that stores its decisions
-- (lib/server/trends/store-buckets.ts, computed by lib/trends/buckets.ts). Every real-world UTC
-- offset is a multiple of 15 minutes, so the buckets of any time zone's day are exactly that day's.
--
-- counts: flat counts (lib/trends/buckets.ts, TrendCounts): "turns", "reviewerViolations",
-- "reminders.<key>.candidates|delivered|dropped", "findings.<CODE>", "followUp.<key>.delivered|followed".
-- Zero counts are left out. agent, model, copy_version and policy_version are the run's, copied here
-- so the trends filter without a join; the versions are fingerprints of the resolved copy and of the
-- policy the run started with.
--
-- run_decisions.trend_version: the version of the bucket computation a run's buckets were stored
-- with (lib/trends/buckets.ts, TREND_VERSION). NULL for every run rebuilt before this migration: the
-- sweep of stale runs (lib/server/jobs/stale-runs.ts) rebuilds them, which stores their buckets.

-- AlterTable
ALTER TABLE "run_decisions" ADD COLUMN "trend_version" INTEGER;

-- CreateTable
CREATE TABLE "trend_buckets" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "agent" TEXT,
    "model" TEXT,
    "copy_version" TEXT NOT NULL,
    "policy_version" TEXT NOT NULL,
    "counts" JSONB NOT NULL,

    CONSTRAINT "trend_buckets_pkey" PRIMARY KEY ("project_id","run_pk","bucket")
);

-- AddForeignKey
ALTER TABLE "trend_buckets" ADD CONSTRAINT "trend_buckets_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk") REFERENCES "runs"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The trends read: a project's buckets in a window of time, whatever else is stored.
CREATE INDEX "trend_buckets_project_id_bucket_idx" ON "trend_buckets" ("project_id", "bucket");
