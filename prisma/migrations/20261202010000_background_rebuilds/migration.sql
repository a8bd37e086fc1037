-- Rebuilds run as background jobs (lib/server/jobs): a run's last rebuild is kept whatever its
-- outcome (decisions and summary, or the error), with the highest event seq it included and the
-- core's checkpoint to resume from. The job queue's own tables live in the "pgboss" schema, which
-- pg-boss creates and migrates itself.
ALTER TABLE "run_decisions" ALTER COLUMN "decisions" DROP NOT NULL;
ALTER TABLE "run_decisions" ALTER COLUMN "summary" DROP NOT NULL;
ALTER TABLE "run_decisions" ADD COLUMN "max_seq" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "run_decisions" ADD COLUMN "error" TEXT;
ALTER TABLE "run_decisions" ADD COLUMN "checkpoint" JSONB;
-- The run page's first chart, the whole run's timeline (lib/charts/build-timeline.ts), built with the
-- decisions so that the page of a long run does not parse all its decisions to draw it.
ALTER TABLE "run_decisions" ADD COLUMN "timeline" TEXT;

-- The events that arrived after a rebuild: WHERE project_id = $1 AND run_pk = $2 AND seq > $3.
CREATE INDEX "events_project_id_run_pk_seq_idx" ON "events"("project_id", "run_pk", "seq");

-- What-if replays run as queue jobs: the runs they were started on (a retry replays the same ones)
-- and how many attempts were made.
ALTER TABLE "replay_jobs" ADD COLUMN "run_pks" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "replay_jobs" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
-- A replay still "running" from before has no queue job and no runs recorded: nobody will finish it.
UPDATE "replay_jobs" SET "status" = 'failed', "finished_at" = now(),
  "error" = 'the replay was running when Cuescope was upgraded to background jobs; start it again'
  WHERE "status" = 'running';
