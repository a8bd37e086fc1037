-- The trend counts of the runs that name an experiment (contract §10), also per experiment and arm:
-- the effectiveness read filtered by an experiment or arm (GET /api/v1/effectiveness?experiment=&arm=)
-- reads them as the trends read trend_agent_rollups (lib/server/trends/trends.ts windowCounts).
--
-- trend_buckets gets the run's experiment and arm as sent (runs.experiment_id, experiment_arm; NULL
-- for a run without one), written with its buckets by the rebuild (lib/server/trends/store-buckets.ts).
-- trend_experiment_rollups sums the buckets of the runs with an experiment, by the same levels as the
-- other rollups (15 minutes, hour, 6 hours, day) and also per agent and model, so every filter of the
-- trends composes with the experiment's. Runs without an experiment add nothing to it: it holds the
-- experiments' runs only, however many other runs a project has.
ALTER TABLE "trend_buckets" ADD COLUMN "experiment_id" TEXT, ADD COLUMN "experiment_arm" TEXT;

CREATE TABLE "trend_experiment_rollups" (
    "project_id" TEXT NOT NULL,
    "minutes" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "copy_version" TEXT NOT NULL,
    "policy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_experiment_rollups_pkey"
      PRIMARY KEY ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "policy_version", "key") INCLUDE ("n")
);
ALTER TABLE "trend_experiment_rollups" ADD CONSTRAINT "trend_experiment_rollups_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The runs that already name an experiment: their buckets get it, then their sums.
UPDATE "trend_buckets" b SET "experiment_id" = r."experiment_id", "experiment_arm" = coalesce(r."experiment_arm", '')
  FROM "runs" r
 WHERE r."project_id" = b."project_id" AND r."id" = b."run_pk" AND r."experiment_id" IS NOT NULL;

INSERT INTO "trend_experiment_rollups" ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "policy_version", "key", "n")
SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."experiment_id", b."experiment_arm",
       coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
  FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
       CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
 WHERE b."experiment_id" IS NOT NULL
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
HAVING sum(c."value"::bigint) <> 0;

-- One statement each for an INSERT, a DELETE and an UPDATE of trend_buckets, as the other rollups'
-- (migration 20261228000110_rollup_index_lookups: run by EXECUTE, planned at each call, each sum
-- found through the primary key). A bucket's experiment never changes in place: the rebuild replaces
-- every bucket of a run whose filing changed (store-buckets.ts bucketsFiling), so an UPDATE's old
-- and new rows have the same experiment and arm.
CREATE FUNCTION "trend_experiment_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $q$INSERT INTO "trend_experiment_rollups" AS r
         ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."experiment_id", coalesce(b."experiment_arm", ''),
         coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   WHERE b."experiment_id" IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "policy_version", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  RETURN NULL;
END $$;

CREATE FUNCTION "trend_experiment_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$UPDATE "trend_experiment_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."experiment_id",
                 coalesce(b."experiment_arm", '') AS "arm", coalesce(b."agent", '') AS "agent", coalesce(b."model", '') AS "model",
                 b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                 CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           WHERE b."experiment_id" IS NOT NULL
           GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."experiment_id", r."arm", r."agent", r."model", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."experiment_id", g."arm", g."agent", g."model", g."copy_version", g."policy_version", g."key")$q$;
  EXECUTE $q$DELETE FROM "trend_experiment_rollups" AS r
   USING (SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
            FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           WHERE b."experiment_id" IS NOT NULL) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE FUNCTION "trend_experiment_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$INSERT INTO "trend_experiment_rollups" AS r
         ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."experiment_id", coalesce(b."experiment_arm", ''),
         coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", b."policy_version", c."key", sum(b."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
         CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   WHERE b."experiment_id" IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  HAVING sum(b."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "policy_version", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  EXECUTE $q$DELETE FROM "trend_experiment_rollups" AS r
   USING (SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket"
            FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           WHERE o."experiment_id" IS NOT NULL) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE TRIGGER "trend_buckets_experiment_rollup_add" AFTER INSERT ON "trend_buckets"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "trend_experiment_rollups_add"();
CREATE TRIGGER "trend_buckets_experiment_rollup_subtract" AFTER DELETE ON "trend_buckets"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "trend_experiment_rollups_subtract"();
CREATE TRIGGER "trend_buckets_experiment_rollup_change" AFTER UPDATE ON "trend_buckets"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "trend_experiment_rollups_change"();
