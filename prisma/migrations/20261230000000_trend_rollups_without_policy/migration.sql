-- Trend rollups without the policy version. A run's policy version is the hash of the policy it
-- sent; an agent that sizes its limits per task sends a new one with each run, so a day's rows of
-- trend_rollups (per copy and policy version) and trend_agent_rollups (also per agent and model)
-- grew with its runs, and so did every read that sums them over all versions: the effectiveness
-- read at 1M events (202 runs, 202 policy versions) read 41k rows of 3 days (60 ms; p95 111 ms
-- over HTTP against 42 ms at 100k). The reads that ask for no policy version now sum tables without
-- it, whose rows follow the copy versions, agents and models in the window, not the runs:
--   trend_rollups         per copy version: the reads with no filter, or a copy version only;
--   trend_agent_rollups   also per agent and model: an agent or model asked for;
--   trend_policy_rollups  also per policy version (the old trend_agent_rollups, renamed with its
--                         rows): a policy version asked for (its rows follow the agents, models and
--                         copies of that one policy), and the versions listed in a window.
-- trend_experiment_rollups is unchanged. The triggers on trend_buckets keep all three in the same
-- statements as before: each expands the statement's counts (per level and key) once and writes
-- the three tables from it in one statement, then deletes the rows brought to 0. A bucket's write
-- now touches three tables' rows instead of two; the read picks the table (lib/server/trends/trends.ts
-- rollupTable).

-- The old per-agent table keeps its rows as the per-policy one.
ALTER TABLE "trend_agent_rollups" RENAME TO "trend_policy_rollups";
ALTER TABLE "trend_policy_rollups" RENAME CONSTRAINT "trend_agent_rollups_pkey" TO "trend_policy_rollups_pkey";
ALTER TABLE "trend_policy_rollups" RENAME CONSTRAINT "trend_agent_rollups_project_id_fkey" TO "trend_policy_rollups_project_id_fkey";

CREATE TABLE "trend_agent_rollups" (
    "project_id" TEXT NOT NULL,
    "minutes" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "copy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_agent_rollups_pkey" PRIMARY KEY ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key") INCLUDE ("n")
);
ALTER TABLE "trend_agent_rollups" ADD CONSTRAINT "trend_agent_rollups_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
INSERT INTO "trend_agent_rollups" ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key", "n")
SELECT "project_id", "minutes", "bucket", "agent", "model", "copy_version", "key", sum("n")
  FROM "trend_policy_rollups"
 GROUP BY 1, 2, 3, 4, 5, 6, 7
HAVING sum("n") <> 0;

-- trend_rollups again, per copy version only (its sums over the policy versions).
ALTER TABLE "trend_rollups" RENAME TO "trend_rollups_by_policy";
ALTER TABLE "trend_rollups_by_policy" RENAME CONSTRAINT "trend_rollups_pkey" TO "trend_rollups_by_policy_pkey";
CREATE TABLE "trend_rollups" (
    "project_id" TEXT NOT NULL,
    "minutes" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "copy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_rollups_pkey" PRIMARY KEY ("project_id", "minutes", "bucket", "copy_version", "key") INCLUDE ("n")
);
INSERT INTO "trend_rollups" ("project_id", "minutes", "bucket", "copy_version", "key", "n")
SELECT "project_id", "minutes", "bucket", "copy_version", "key", sum("n")
  FROM "trend_rollups_by_policy"
 GROUP BY 1, 2, 3, 4, 5
HAVING sum("n") <> 0;
DROP TABLE "trend_rollups_by_policy";
ALTER TABLE "trend_rollups" ADD CONSTRAINT "trend_rollups_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The triggers of migrations 20261227000200_trend_levels and 20261228000110_rollup_index_lookups
-- (hash and merge joins off, statements run by EXECUTE so each is planned with the tables' current
-- size), for the three tables.
CREATE OR REPLACE FUNCTION "trend_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The statement's buckets' counts are read once (per level and key, summed over their policy
  -- versions only where a table has none) and added to the three tables in one statement.
  WITH "counts" AS MATERIALIZED (
    SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", coalesce(b."agent", '') AS "agent",
           coalesce(b."model", '') AS "model", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
      FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    HAVING sum(c."value"::bigint) <> 0),
  "by_copy" AS (
    INSERT INTO "trend_rollups" AS r ("project_id", "minutes", "bucket", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("project_id", "minutes", "bucket", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"),
  "by_agent" AS (
    INSERT INTO "trend_agent_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "agent", "model", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n")
  INSERT INTO "trend_policy_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT "project_id", "m", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n" FROM "counts" ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  -- Every row subtracted from was added with the buckets being removed, so it exists (unless its
  -- project is being deleted, which takes its rollups too). The removed counts are read once.
  EXECUTE $q$WITH "counts" AS MATERIALIZED (
    SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", coalesce(b."agent", '') AS "agent",
           coalesce(b."model", '') AS "model", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
      FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8),
  "by_copy" AS (
    UPDATE "trend_rollups" AS r SET "n" = r."n" - g."n"
      FROM (SELECT "project_id", "m", "bucket", "copy_version", "key", sum("n") AS "n" FROM "counts" GROUP BY 1, 2, 3, 4, 5) AS g
     WHERE (r."project_id", r."minutes", r."bucket", r."copy_version", r."key") = (g."project_id", g."m", g."bucket", g."copy_version", g."key")),
  "by_agent" AS (
    UPDATE "trend_agent_rollups" AS r SET "n" = r."n" - g."n"
      FROM (SELECT "project_id", "m", "bucket", "agent", "model", "copy_version", "key", sum("n") AS "n" FROM "counts" GROUP BY 1, 2, 3, 4, 5, 6, 7) AS g
     WHERE (r."project_id", r."minutes", r."bucket", r."agent", r."model", r."copy_version", r."key")
         = (g."project_id", g."m", g."bucket", g."agent", g."model", g."copy_version", g."key"))
  UPDATE "trend_policy_rollups" AS r SET "n" = r."n" - g."n"
    FROM "counts" AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."agent", r."model", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."agent", g."model", g."copy_version", g."policy_version", g."key")$q$;
  -- The rows of the removed buckets' spans that this brought to 0 (a statement of its own: it
  -- must see the updates above).
  EXECUTE $q$WITH "spans" AS MATERIALIZED (
    SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket"
      FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")),
  "by_copy" AS (
    DELETE FROM "trend_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0),
  "by_agent" AS (
    DELETE FROM "trend_agent_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0)
  DELETE FROM "trend_policy_rollups" AS r USING "spans" AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  -- Each key's difference between the new rows and the old ones, read once, added where it is not 0.
  EXECUTE $q$WITH "counts" AS MATERIALIZED (
    SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", coalesce(b."agent", '') AS "agent",
           coalesce(b."model", '') AS "model", b."copy_version", b."policy_version", c."key", sum(b."sign" * c."value"::bigint) AS "n"
      FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
           CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    HAVING sum(b."sign" * c."value"::bigint) <> 0),
  "by_copy" AS (
    INSERT INTO "trend_rollups" AS r ("project_id", "minutes", "bucket", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("project_id", "minutes", "bucket", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"),
  "by_agent" AS (
    INSERT INTO "trend_agent_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "agent", "model", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n")
  INSERT INTO "trend_policy_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT "project_id", "m", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n" FROM "counts" ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  -- The rows a decrease may have brought to 0.
  EXECUTE $q$WITH "spans" AS MATERIALIZED (
    SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket"
      FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")),
  "by_copy" AS (
    DELETE FROM "trend_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0),
  "by_agent" AS (
    DELETE FROM "trend_agent_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0)
  DELETE FROM "trend_policy_rollups" AS r USING "spans" AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

-- trend_experiment_rollups without the policy version as well: an experiment's runs send their own
-- policies like any others (an arm without a policy version keeps the agent's), so the read of one
-- arm grew with the arm's runs. A read filtered by an experiment and a policy version sums the
-- runs' buckets instead (lib/server/trends/trends.ts windowCounts).
ALTER TABLE "trend_experiment_rollups" RENAME TO "trend_experiment_rollups_by_policy";
ALTER TABLE "trend_experiment_rollups_by_policy" RENAME CONSTRAINT "trend_experiment_rollups_pkey" TO "trend_experiment_rollups_by_policy_pkey";
CREATE TABLE "trend_experiment_rollups" (
    "project_id" TEXT NOT NULL,
    "minutes" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "experiment_id" TEXT NOT NULL,
    "arm" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "copy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_experiment_rollups_pkey"
      PRIMARY KEY ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key") INCLUDE ("n")
);
INSERT INTO "trend_experiment_rollups" ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n")
SELECT "project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", sum("n")
  FROM "trend_experiment_rollups_by_policy"
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
HAVING sum("n") <> 0;
DROP TABLE "trend_experiment_rollups_by_policy";
ALTER TABLE "trend_experiment_rollups" ADD CONSTRAINT "trend_experiment_rollups_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Its triggers (migration 20261229000000_trend_experiment_rollups), without the policy version.
CREATE OR REPLACE FUNCTION "trend_experiment_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $q$INSERT INTO "trend_experiment_rollups" AS r
         ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."experiment_id", coalesce(b."experiment_arm", ''),
         coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   WHERE b."experiment_id" IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_experiment_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$UPDATE "trend_experiment_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."experiment_id",
                 coalesce(b."experiment_arm", '') AS "arm", coalesce(b."agent", '') AS "agent", coalesce(b."model", '') AS "model",
                 b."copy_version", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                 CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           WHERE b."experiment_id" IS NOT NULL
           GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9) AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."experiment_id", r."arm", r."agent", r."model", r."copy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."experiment_id", g."arm", g."agent", g."model", g."copy_version", g."key")$q$;
  EXECUTE $q$DELETE FROM "trend_experiment_rollups" AS r
   USING (SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
            FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           WHERE b."experiment_id" IS NOT NULL) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_experiment_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$INSERT INTO "trend_experiment_rollups" AS r
         ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."experiment_id", coalesce(b."experiment_arm", ''),
         coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", c."key", sum(b."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
         CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   WHERE b."experiment_id" IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  HAVING sum(b."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT ("project_id", "minutes", "bucket", "experiment_id", "arm", "agent", "model", "copy_version", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  EXECUTE $q$DELETE FROM "trend_experiment_rollups" AS r
   USING (SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket"
            FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           WHERE o."experiment_id" IS NOT NULL) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;
