-- Experiment results stored by the rebuild (contract §10, docs/contract/experiments.md), so that an
-- experiment's results are read as sums of stored rows, never computed on a read.
--
-- experiment_runs: one row per run whose run.started names an experiment, written by the run's
-- rebuild in the transaction that stores its decisions (lib/server/rebuild/experiment-runs.ts):
--   experiment_id, arm: as the run named them (runs.experiment_id, runs.experiment_arm);
--   assigned_arm:       the arm assignment gives the run (contract §10, assignment) among the
--                       experiment's arms; null when the experiment is not the project's;
--   status:             counted    (ended, and arm = assigned_arm),
--                       mismatched (ended, and another arm or one the experiment does not have),
--                       unknown    (the experiment id is not one of the project's),
--                       live       (no run.ended yet);
--   counts:             the run's additive counts (lib/derived/effectiveness/effectiveness.ts,
--                       experimentRunCounts), zeros left out; a live run's only {"runs": 1}.
--
-- experiment_rollups: per experiment, arm, status and count key, the sum n of that key over the
-- runs' rows; a row whose sum falls to 0 is deleted. Kept by statement-level triggers on
-- experiment_runs as the trend rollups are kept by those on trend_buckets (migrations
-- 20261224000000_trend_rollups, 20261227000200_trend_levels): an INSERT adds its rows, a DELETE
-- (a run deleted, retention, a project deleted: by cascade) subtracts them, an UPDATE adds each key's
-- difference between the new rows and the old ones. Additions are INSERT … ON CONFLICT DO UPDATE SET
-- n = n + EXCLUDED.n in key order; the rebuild writes experiment_runs under the project's trend
-- rollup lock (lib/server/trends/store-buckets.ts), so two rebuilds never wait on each other's rows.

-- CreateTable
CREATE TABLE "experiment_runs" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "assigned_arm" TEXT,
    "status" TEXT NOT NULL,
    "counts" JSONB NOT NULL,

    CONSTRAINT "experiment_runs_pkey" PRIMARY KEY ("project_id", "run_pk"),
    CONSTRAINT "experiment_runs_status_check" CHECK ("status" IN ('counted', 'mismatched', 'unknown', 'live'))
);
CREATE INDEX "experiment_runs_project_id_experiment_id_idx" ON "experiment_runs" ("project_id", "experiment_id");
ALTER TABLE "experiment_runs" ADD CONSTRAINT "experiment_runs_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk") REFERENCES "runs"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- CreateTable
CREATE TABLE "experiment_rollups" (
    "project_id" TEXT NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "experiment_rollups_pkey" PRIMARY KEY ("project_id", "experiment_id", "arm", "status", "key") INCLUDE ("n")
);
ALTER TABLE "experiment_rollups" ADD CONSTRAINT "experiment_rollups_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The triggers: each adds or subtracts the statement's rows (its transition tables), in key order.
-- Like trend_rollups_subtract, hash and merge joins are off so that each sum finds its row through
-- the primary key, and each statement is run by EXECUTE, so planned on every call with the rollups'
-- current size (not once per session while they were empty: migration 20261228000110_rollup_index_lookups).
CREATE FUNCTION "experiment_rollups_add"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$INSERT INTO "experiment_rollups" AS r ("project_id", "experiment_id", "arm", "status", "key", "n")
  SELECT e."project_id", e."experiment_id", e."arm", e."status", c."key", sum(c."value"::bigint)
    FROM "added" e CROSS JOIN LATERAL jsonb_each_text(e."counts") AS c("key", "value")
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("project_id", "experiment_id", "arm", "status", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  EXECUTE $q$DELETE FROM "experiment_rollups" AS r
   USING (SELECT DISTINCT e."project_id", e."experiment_id", e."arm", e."status" FROM "added" e) AS g
   WHERE (r."project_id", r."experiment_id", r."arm", r."status") = (g."project_id", g."experiment_id", g."arm", g."status") AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE FUNCTION "experiment_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  -- Every row subtracted from was added with the rows being removed, so it exists (unless its
  -- project is being deleted, which takes its rollups too).
  EXECUTE $q$UPDATE "experiment_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT e."project_id", e."experiment_id", e."arm", e."status", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" e CROSS JOIN LATERAL jsonb_each_text(e."counts") AS c("key", "value")
           GROUP BY 1, 2, 3, 4, 5) AS g
   WHERE (r."project_id", r."experiment_id", r."arm", r."status", r."key") = (g."project_id", g."experiment_id", g."arm", g."status", g."key")$q$;
  EXECUTE $q$DELETE FROM "experiment_rollups" AS r
   USING (SELECT DISTINCT e."project_id", e."experiment_id", e."arm", e."status" FROM "removed" e) AS g
   WHERE (r."project_id", r."experiment_id", r."arm", r."status") = (g."project_id", g."experiment_id", g."arm", g."status") AND r."n" = 0$q$;
  RETURN NULL;
END $$;

-- An update (a run's rebuild with new counts or a new status) adds, per key, the new rows' sums less
-- the old rows'; only keys whose sum changed are written, and rows brought to 0 are deleted.
CREATE FUNCTION "experiment_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$INSERT INTO "experiment_rollups" AS r ("project_id", "experiment_id", "arm", "status", "key", "n")
  SELECT e."project_id", e."experiment_id", e."arm", e."status", c."key", sum(e."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a."project_id", a."experiment_id", a."arm", a."status", a."counts" FROM "added" a
          UNION ALL
          SELECT -1, o."project_id", o."experiment_id", o."arm", o."status", o."counts" FROM "removed" o) AS e
         CROSS JOIN LATERAL jsonb_each_text(e."counts") AS c("key", "value")
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(e."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("project_id", "experiment_id", "arm", "status", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  EXECUTE $q$DELETE FROM "experiment_rollups" AS r
   USING (SELECT DISTINCT o."project_id", o."experiment_id", o."arm", o."status" FROM "removed" o
          UNION SELECT DISTINCT a."project_id", a."experiment_id", a."arm", a."status" FROM "added" a) AS g
   WHERE (r."project_id", r."experiment_id", r."arm", r."status") = (g."project_id", g."experiment_id", g."arm", g."status") AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE TRIGGER "experiment_runs_rollup_add" AFTER INSERT ON "experiment_runs"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "experiment_rollups_add"();
CREATE TRIGGER "experiment_runs_rollup_subtract" AFTER DELETE ON "experiment_runs"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "experiment_rollups_subtract"();
CREATE TRIGGER "experiment_runs_rollup_change" AFTER UPDATE ON "experiment_runs"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "experiment_rollups_change"();
