-- "Runs out within N turns" alert rules (issue 27, docs/alerts.md, docs/projection.md).
--
-- Hand-written SQL (see README, "Migrations"): the partial indexes have no counterpart in
-- prisma/schema.prisma; the model's comment points here.

-- The turns from a run's last rebuilt turn to its requests and time limits at its fitted recent pace
-- (its summary's projection; 0: already reached), null when the run has no projection of that meter,
-- its pace never reaches the limit, or its rebuild failed. The rebuild keeps them on the run's row
-- like the list's other figures (lib/server/runs/list-figures.ts), so "a live run runs out within N
-- turns" is an index read of the live runs nearest their limit, however many runs the project has.
--
-- Nothing is filled here: DERIVED_VERSION 5 (lib/server/rebuild/derived-version.ts) has the sweep of
-- stale runs rebuild every run in full, which writes them; and no rule of this kind exists before
-- this migration.
ALTER TABLE "runs"
  ADD COLUMN "requests_limit_in" INTEGER,
  ADD COLUMN "time_limit_in" INTEGER;

CREATE INDEX "runs_live_requests_limit_in_idx" ON "runs" ("project_id", "requests_limit_in") WHERE "status" = 'live' AND "requests_limit_in" IS NOT NULL;
CREATE INDEX "runs_live_time_limit_in_idx" ON "runs" ("project_id", "time_limit_in") WHERE "status" = 'live' AND "time_limit_in" IS NOT NULL;
