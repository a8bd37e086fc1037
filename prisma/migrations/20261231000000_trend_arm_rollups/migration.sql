-- Trend rollups per experiment, arm and copy version. trend_experiment_rollups keeps an experiment's
-- counts also per agent and model, so the read of one arm (effectiveness, trends) summed a row per
-- agent × model for every day and count key: the scale bench's arm read summed 828 rows at 100k
-- events and 5,654 at 1M for 277 → 425 rows answered, as the arm's runs filled its 12 agent × model
-- pairs. A read that names an experiment and no agent or model now sums trend_arm_rollups, whose
-- rows follow the arm's copy versions and count keys, not its agents and models
-- (lib/server/trends/trends.ts rollupTable). It is filled from trend_experiment_rollups (the same
-- buckets, summed over agent and model), and the experiment triggers keep both tables in the same
-- statements: each expands the statement's counts once and writes the two tables from them.

CREATE TABLE "trend_arm_rollups" (
    "project_id" TEXT NOT NULL,
    "minutes" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "copy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_arm_rollups_pkey"
      PRIMARY KEY ("project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key") INCLUDE ("n")
);
INSERT INTO "trend_arm_rollups" ("project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key", "n")
SELECT "project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key", sum("n")
  FROM "trend_experiment_rollups"
 GROUP BY 1, 2, 3, 4, 5, 6, 7
HAVING sum("n") <> 0;
ALTER TABLE "trend_arm_rollups" ADD CONSTRAINT "trend_arm_rollups_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The triggers of migration 20261230000000_trend_rollups_without_policy, for both tables.
CREATE OR REPLACE FUNCTION "trend_experiment_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $q$WITH "counts" AS MATERIALIZED (
    SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."experiment_id", coalesce(b."experiment_arm", '') AS "arm",
           coalesce(b."agent", '') AS "agent", coalesce(b."model", '') AS "model", b."copy_version", c."key", sum(c."value"::bigint) AS "n"
      FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     WHERE b."experiment_id" IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    HAVING sum(c."value"::bigint) <> 0),
  "by_arm" AS (
    INSERT INTO "trend_arm_rollups" AS r ("project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "experiment_id", "arm", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n")
  INSERT INTO "trend_experiment_rollups" AS r
         ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n")
  SELECT "project_id", "m", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n" FROM "counts"
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_experiment_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$WITH "counts" AS MATERIALIZED (
    SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."experiment_id", coalesce(b."experiment_arm", '') AS "arm",
           coalesce(b."agent", '') AS "agent", coalesce(b."model", '') AS "model", b."copy_version", c."key", sum(c."value"::bigint) AS "n"
      FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     WHERE b."experiment_id" IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9),
  "by_arm" AS (
    UPDATE "trend_arm_rollups" AS r SET "n" = r."n" - g."n"
      FROM (SELECT "project_id", "m", "bucket", "experiment_id", "arm", "copy_version", "key", sum("n") AS "n" FROM "counts" GROUP BY 1, 2, 3, 4, 5, 6, 7) AS g
     WHERE (r."project_id", r."minutes", r."bucket", r."experiment_id", r."arm", r."copy_version", r."key")
         = (g."project_id", g."m", g."bucket", g."experiment_id", g."arm", g."copy_version", g."key"))
  UPDATE "trend_experiment_rollups" AS r SET "n" = r."n" - g."n"
    FROM "counts" AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."experiment_id", r."arm", r."agent", r."model", r."copy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."experiment_id", g."arm", g."agent", g."model", g."copy_version", g."key")$q$;
  -- The rows of the removed buckets' spans that this brought to 0 (a statement of its own: it
  -- must see the updates above).
  EXECUTE $q$WITH "spans" AS MATERIALIZED (
    SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
      FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     WHERE b."experiment_id" IS NOT NULL),
  "by_arm" AS (
    DELETE FROM "trend_arm_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0)
  DELETE FROM "trend_experiment_rollups" AS r USING "spans" AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_experiment_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$WITH "counts" AS MATERIALIZED (
    SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."experiment_id", coalesce(b."experiment_arm", '') AS "arm",
           coalesce(b."agent", '') AS "agent", coalesce(b."model", '') AS "model", b."copy_version", c."key", sum(b."sign" * c."value"::bigint) AS "n"
      FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
           CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     WHERE b."experiment_id" IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    HAVING sum(b."sign" * c."value"::bigint) <> 0),
  "by_arm" AS (
    INSERT INTO "trend_arm_rollups" AS r ("project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "experiment_id", "arm", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n")
  INSERT INTO "trend_experiment_rollups" AS r
         ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n")
  SELECT "project_id", "m", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n" FROM "counts"
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  -- The rows a decrease may have brought to 0.
  EXECUTE $q$WITH "spans" AS MATERIALIZED (
    SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket"
      FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     WHERE o."experiment_id" IS NOT NULL),
  "by_arm" AS (
    DELETE FROM "trend_arm_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0)
  DELETE FROM "trend_experiment_rollups" AS r USING "spans" AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;
