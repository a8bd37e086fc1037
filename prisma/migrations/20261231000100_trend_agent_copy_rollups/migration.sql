-- Trend rollups per agent and copy version. trend_agent_rollups keeps the counts per agent, model
-- and copy version, so the read of one agent (effectiveness, trends) summed a row per model for
-- every day and count key: as an agent's runs filled its models, the rows it read grew faster than
-- its answer (the scale bench's effectiveness read of one agent: 3.7 -> 6.8-8.8 ms from 100k to 1M
-- events in-process, against 3.5 -> 5.0 ms summing rows per agent and copy version). A read that
-- names an agent and no model now sums trend_agent_copy_rollups; a model asked for still reads
-- trend_agent_rollups (lib/server/trends/trends.ts rollupTable). It is filled from
-- trend_agent_rollups (the same buckets, summed over models), and the triggers of migration
-- 20261230000000_trend_rollups_without_policy write it from the counts they already expand: a
-- bucket's write now touches four tables' rows instead of three.

CREATE TABLE "trend_agent_copy_rollups" (
    "project_id" TEXT NOT NULL,
    "minutes" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "agent" TEXT NOT NULL,
    "copy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_agent_copy_rollups_pkey" PRIMARY KEY ("project_id", "minutes", "bucket", "agent", "copy_version", "key") INCLUDE ("n")
);
INSERT INTO "trend_agent_copy_rollups" ("project_id", "minutes", "bucket", "agent", "copy_version", "key", "n")
SELECT "project_id", "minutes", "bucket", "agent", "copy_version", "key", sum("n")
  FROM "trend_agent_rollups"
 GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum("n") <> 0;
ALTER TABLE "trend_agent_copy_rollups" ADD CONSTRAINT "trend_agent_copy_rollups_project_id_fkey"
  FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

CREATE OR REPLACE FUNCTION "trend_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The statement's buckets' counts are read once (per level and key, summed over their policy
  -- versions only where a table has none) and added to the four tables in one statement.
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
    ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"),
  "by_agent_copy" AS (
    INSERT INTO "trend_agent_copy_rollups" AS r ("project_id", "minutes", "bucket", "agent", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "agent", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("project_id", "minutes", "bucket", "agent", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n")
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
         = (g."project_id", g."m", g."bucket", g."agent", g."model", g."copy_version", g."key")),
  "by_agent_copy" AS (
    UPDATE "trend_agent_copy_rollups" AS r SET "n" = r."n" - g."n"
      FROM (SELECT "project_id", "m", "bucket", "agent", "copy_version", "key", sum("n") AS "n" FROM "counts" GROUP BY 1, 2, 3, 4, 5, 6) AS g
     WHERE (r."project_id", r."minutes", r."bucket", r."agent", r."copy_version", r."key")
         = (g."project_id", g."m", g."bucket", g."agent", g."copy_version", g."key"))
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
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0),
  "by_agent_copy" AS (
    DELETE FROM "trend_agent_copy_rollups" AS r USING "spans" AS g
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
    ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"),
  "by_agent_copy" AS (
    INSERT INTO "trend_agent_copy_rollups" AS r ("project_id", "minutes", "bucket", "agent", "copy_version", "key", "n")
    SELECT "project_id", "m", "bucket", "agent", "copy_version", "key", sum("n") FROM "counts"
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum("n") <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("project_id", "minutes", "bucket", "agent", "copy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n")
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
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0),
  "by_agent_copy" AS (
    DELETE FROM "trend_agent_copy_rollups" AS r USING "spans" AS g
     WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0)
  DELETE FROM "trend_policy_rollups" AS r USING "spans" AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;
