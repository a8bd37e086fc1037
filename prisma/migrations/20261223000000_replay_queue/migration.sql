-- What-if replays are queued in their own table (lib/server/jobs/replay-queue.ts) instead of pg-boss:
-- a worker claims the next one fairly across projects, marks it alive while it works, and a sweep
-- takes back one whose worker stopped marking it.
--   run_after:    a queued replay is not claimed before then (a retry waits a little)
--   started_at:   when its latest attempt was claimed (the projects' turns are ordered by it)
--   heartbeat_at: the worker's latest sign of life; NULL while the replay is queued
--   expires_at:   when its latest attempt is taken as lost however alive its worker
--   worker_token: which claim the latest attempt is (a worker whose claim was taken back stops)
ALTER TABLE "replay_jobs" ADD COLUMN "run_after" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "replay_jobs" ADD COLUMN "started_at" TIMESTAMPTZ(3);
ALTER TABLE "replay_jobs" ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3);
ALTER TABLE "replay_jobs" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "replay_jobs" ADD COLUMN "worker_token" TEXT;

-- Identical replays queued before this (one job per request): the oldest stays, the others end.
UPDATE "replay_jobs" AS j SET "status" = 'cancelled', "finished_at" = now(),
  "error" = 'an identical replay was already queued; this one was dropped when Cuescope was upgraded'
  WHERE j."status" = 'running' AND NOT j."cancel_requested" AND EXISTS (
    SELECT 1 FROM "replay_jobs" AS o
     WHERE o."project_id" = j."project_id" AND o."input_key" = j."input_key" AND o."status" = 'running'
       AND NOT o."cancel_requested" AND (o."created_at", o."id") < (j."created_at", j."id"));

-- One pending replay per project and inputs: an identical request gets the same job.
CREATE UNIQUE INDEX "replay_jobs_one_pending_per_input" ON "replay_jobs"("project_id", "input_key")
  WHERE "status" = 'running' AND NOT "cancel_requested";
-- One replay of a project at work at a time, across every worker process.
CREATE UNIQUE INDEX "replay_jobs_one_at_work_per_project" ON "replay_jobs"("project_id")
  WHERE "status" = 'running' AND "heartbeat_at" IS NOT NULL;
-- The queue: replays waiting for a worker.
CREATE INDEX "replay_jobs_queued_idx" ON "replay_jobs"("run_after") WHERE "status" = 'running' AND "heartbeat_at" IS NULL;
-- A project's latest start, for the order of turns between projects.
CREATE INDEX "replay_jobs_project_id_started_at_idx" ON "replay_jobs"("project_id", "started_at");
