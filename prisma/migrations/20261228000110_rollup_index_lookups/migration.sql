-- The trend rollup triggers that join a statement's rows to the rollups (trend_rollups_subtract and
-- trend_rollups_change, migration 20261227000200_trend_levels) turn hash and merge joins off so that
-- each sum finds its row through the primary key. But PL/pgSQL plans each statement once per
-- session and keeps the plan: planned at the first rebuild after a start, while the rollups were
-- empty or small (PGlite runs no autovacuum, and a table never analyzed is sized by its pages at
-- planning time), the join stayed a nested loop over a sequential scan of the whole rollup table
-- per removed key for the rest of the session. The cost grew with (keys of a run's buckets) × (rows
-- of the rollups): deleting one 900-turn run's buckets took 1.4 s at 5 runs and 1,700 rollup rows,
-- and 10–14 s once the buckets also held contract §10's effect and fatigue keys (5,800 rows).
-- The same statements, now run by EXECUTE, are planned on every call with the rollups' current
-- size and find their rows through the primary key: 0.03–0.25 s for the same delete.
CREATE OR REPLACE FUNCTION "trend_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  -- Every row subtracted from was added with the buckets being removed, so it exists (unless its
  -- project is being deleted, which takes its rollups too).
  EXECUTE $q$UPDATE "trend_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", b."copy_version", b."policy_version", c."key",
                 sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                 CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           GROUP BY 1, 2, 3, 4, 5, 6) AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."copy_version", g."policy_version", g."key")$q$;
  EXECUTE $q$UPDATE "trend_agent_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket", coalesce(b."agent", '') AS "agent",
                 coalesce(b."model", '') AS "model", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
                 CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
           GROUP BY 1, 2, 3, 4, 5, 6, 7, 8) AS g
   WHERE (r."project_id", r."minutes", r."bucket", r."agent", r."model", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."m", g."bucket", g."agent", g."model", g."copy_version", g."policy_version", g."key")$q$;
  EXECUTE $q$DELETE FROM "trend_rollups" AS r
   USING (SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
            FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  EXECUTE $q$DELETE FROM "trend_agent_rollups" AS r
   USING (SELECT DISTINCT b."project_id", l."m", "trend_level_start"(l."m", b."bucket") AS "bucket"
            FROM "removed" b CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "trend_rollups_change"() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  EXECUTE $q$INSERT INTO "trend_rollups" AS r ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), b."copy_version", b."policy_version", c."key",
         sum(b."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
         CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(b."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("project_id", "minutes", "bucket", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  EXECUTE $q$INSERT INTO "trend_agent_rollups" AS r ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", l."m", "trend_level_start"(l."m", b."bucket"), coalesce(b."agent", ''), coalesce(b."model", ''),
         b."copy_version", b."policy_version", c."key", sum(b."sign" * c."value"::bigint)
    FROM (SELECT 1 AS "sign", a.* FROM "added" a UNION ALL SELECT -1, o.* FROM "removed" o) AS b
         CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
         CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  HAVING sum(b."sign" * c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ("project_id", "minutes", "bucket", "agent", "model", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n"$q$;
  -- The rows a decrease may have brought to 0.
  EXECUTE $q$DELETE FROM "trend_rollups" AS r
   USING (SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket" FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  EXECUTE $q$DELETE FROM "trend_agent_rollups" AS r
   USING (SELECT DISTINCT o."project_id", l."m", "trend_level_start"(l."m", o."bucket") AS "bucket" FROM "removed" o CROSS JOIN (VALUES (15::smallint), (60::smallint), (360::smallint), (1440::smallint)) AS l("m")) AS g
   WHERE r."project_id" = g."project_id" AND r."minutes" = g."m" AND r."bucket" = g."bucket" AND r."n" = 0$q$;
  RETURN NULL;
END $$;
