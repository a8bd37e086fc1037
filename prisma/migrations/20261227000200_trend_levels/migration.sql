-- Trend rollup levels: besides each 15-minute UTC bucket, the trend rollups (trend_rollups,
-- trend_agent_rollups, migration 20261224000000_trend_rollups) now also hold the sums of each UTC
-- hour, 6-hour block (00:00, 06:00, 12:00, 18:00 UTC) and UTC day. A row's "minutes" is its span
-- (15, 60, 360 or 1440) and its "bucket" the span's start, an exact multiple of the span from
-- 0001-01-01T00:00Z (date_bin).
--
-- Why: a time zone's day is a UTC day shifted by its offset (and 23 or 25 hours on a DST day). The
-- trends read (lib/server/trends/trends.ts, levelTerms) sums each day of the window from the fewest
-- aligned spans, added or subtracted (e.g. Europe/Paris in winter: the UTC hour 23:00 of the day
-- before + the UTC day − its hour 23:00): a few rows per day × agent × model × version × key,
-- whether the window's 15-minute buckets are sparsely or fully used. Reading the 15-minute rows
-- instead grew with the runs until all 96 buckets of every day were filled (the filtered read:
-- 2.6× on PostgreSQL, 4.8× on PGlite from 200 to 2,000 runs in a 14-day window).
--
-- A bucket change updates one row per level and key (4, not 1), in the same trigger statements as
-- before; and a resumed rebuild's changed buckets (a live run's batch) are now updated in place,
-- adding only the changed keys' differences (trend_rollups_change, at the end). Rows summing to 0
-- are still deleted.

-- The levels' rows are new; the existing rows are the 15-minute level.
ALTER TABLE "trend_rollups" ADD COLUMN "minutes" SMALLINT NOT NULL DEFAULT 15;
ALTER TABLE "trend_rollups" ALTER COLUMN "minutes" DROP DEFAULT;
ALTER TABLE "trend_rollups" DROP CONSTRAINT "trend_rollups_pkey";
ALTER TABLE "trend_rollups" ADD CONSTRAINT "trend_rollups_pkey"
  PRIMARY KEY ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key") INCLUDE ("n");

ALTER TABLE "trend_agent_rollups" ADD COLUMN "minutes" SMALLINT NOT NULL DEFAULT 15;
ALTER TABLE "trend_agent_rollups" ALTER COLUMN "minutes" DROP DEFAULT;
ALTER TABLE "trend_agent_rollups" DROP CONSTRAINT "trend_agent_rollups_pkey";
ALTER TABLE "trend_agent_rollups" ADD CONSTRAINT "trend_agent_rollups_pkey"
  PRIMARY KEY ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key") INCLUDE ("n");

-- The span of each level containing a bucket.
CREATE FUNCTION "trend_level_start"("minutes" SMALLINT, "bucket" TIMESTAMPTZ) RETURNS TIMESTAMPTZ
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN date_bin(make_interval(mins => "minutes"), "bucket", TIMESTAMPTZ '0001-01-01 00:00:00+00');

-- Back-fill the coarser levels from the 15-minute rows (exact sums of the buckets).
INSERT INTO "trend_rollups" ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key", "n")
SELECT r."project_id", l."m", "trend_level_start"(l."m", r."bucket"), r."copy_version", r."policy_version", r."key", sum(r."n")
  FROM "trend_rollups" r CROSS JOIN (VALUES (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
 WHERE r."minutes" = 15
 GROUP BY 1, 2, 3, 4, 5, 6
HAVING sum(r."n") <> 0;
INSERT INTO "trend_agent_rollups" ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
SELECT r."project_id", l."m", "trend_level_start"(l."m", r."bucket"), r."agent", r."model", r."copy_version", r."policy_version", r."key", sum(r."n")
  FROM "trend_agent_rollups" r CROSS JOIN (VALUES (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
 WHERE r."minutes" = 15
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
HAVING sum(r."n") <> 0;

-- The triggers (same as before, each row now summed into every level).
CREATE OR REPLACE FUNCTION "trend_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "trend_rollups" AS r ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  INSERT INTO "trend_agent_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), coalesce(b."agent", ''), coalesce(b."model", ''),
         b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

-- The subtraction joins the removed buckets' sums to the rollups by their keys. The planner cannot
-- know how few rows a transition table holds, and jsonb_each_text is assumed to give 100 keys, so it
-- chose a hash join over a scan of the whole table (on PGlite, a rebuild's write of one run's 13
-- buckets took 440 ms of a 380k-row scan at 4,000 runs): in this function only, hash and merge joins
-- are off, so each sum finds its row through the primary key (a bucket or two of a live run: a few
-- dozen lookups, however large the project).
CREATE OR REPLACE FUNCTION "trend_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  -- Every row subtracted from was added with the buckets being removed, so it exists (unless its
  -- project is being deleted, which takes its rollups too).
  UPDATE "trend_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."copy_version", b."policy_version", c."key",
                 sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                 CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           GROUP BY 1, 2, 3, 4, 5, 6) AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."copy_version", g."policy_version", g."key");
  UPDATE "trend_agent_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", coalesce(b."agent", '') AS "agent",
                 coalesce(b."model", '') AS "model", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                 CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           GROUP BY 1, 2, 3, 4, 5, 6, 7, 8) AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."agent", r."model", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."agent", g."model", g."copy_version", g."policy_version", g."key");
  DELETE FROM "trend_rollups" AS r
   USING (SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
            FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0;
  DELETE FROM "trend_agent_rollups" AS r
   USING (SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
            FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0;
  RETURN NULL;
END $$;

-- A bucket's counts may now be updated in place (a live run's batch changes its last bucket or two,
-- lib/server/trends/store-buckets.ts): the rollups get the difference, per count key, between the
-- new rows and the old ones, and only keys whose sum changed are written. So a batch writes each
-- changed key's four level rows once, where a DELETE and INSERT of the bucket would subtract and
-- add every key's (eight writes per key and table). Rows whose sum falls to 0 are deleted. An
-- update may change any column (the sums go from the old rows' places to the new rows').
CREATE FUNCTION "trend_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "trend_rollups" AS r ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."copy_version", b."policy_version", c."key",
         sum(b."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
         CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(b."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  INSERT INTO "trend_agent_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), coalesce(b."agent", ''), coalesce(b."model", ''),
         b."copy_version", b."policy_version", c."key", sum(b."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
         CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  HAVING sum(b."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  -- The rows a decrease may have brought to 0.
  DELETE FROM "trend_rollups" AS r
   USING (SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket" FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0;
  DELETE FROM "trend_agent_rollups" AS r
   USING (SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket" FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0;
  RETURN NULL;
END $$;

DROP TRIGGER "trend_buckets_no_update" ON "trend_buckets";
DROP FUNCTION "trend_buckets_no_update"();
CREATE TRIGGER "trend_buckets_rollup_change" AFTER UPDATE ON "trend_buckets"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "trend_rollups_change"();
