-- Trend rollups: a project's trend counts per 15-minute UTC bucket summed over its runs, so the
-- trends read (lib/server/trends/trends.ts) touches rows in proportion to its window and the
-- versions and filters in it, not to how many runs are stored. 15 minutes stays fine enough to
-- regroup into any time zone's days (every real-world UTC offset is a multiple of 15 minutes).
--
-- Two levels, each the exact sum of the run buckets (trend_buckets) it groups:
--   level 0: per bucket, copy version, policy version and count key (agent and model are '');
--            the read without an agent or model filter, and the versions in a window;
--   level 1: per bucket, copy version, policy version, agent, model and count key ('' for a run
--            without an agent or model); the read filtered by agent or model.
-- n is the sum of that count key over the runs' buckets; a row whose sum falls to 0 is deleted, so
-- every row counts something.
--
-- Kept by triggers on trend_buckets, in the transaction and statement that change it, so every
-- writer keeps them exact: a rebuild replacing a run's buckets (lib/server/trends/store-buckets.ts:
-- its DELETE subtracts the old buckets, its INSERT adds the new ones), a run or project deleted
-- (their buckets go by cascade, and are subtracted), retention's DELETE FROM runs. The additions
-- are INSERT … ON CONFLICT DO UPDATE SET n = n + EXCLUDED.n, so rebuilds of two runs of a project
-- at once add up; store-buckets takes a per-project transaction lock first so that two such
-- transactions, each a DELETE then an INSERT, never wait on each other's rows in opposite orders.
-- Rows of trend_buckets are replaced, never updated: an UPDATE is refused.

-- CreateTable
CREATE TABLE "trend_rollups" (
    "project_id" TEXT NOT NULL,
    "level" SMALLINT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "copy_version" TEXT NOT NULL,
    "policy_version" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_rollups_pkey" PRIMARY KEY ("project_id", "level", "bucket", "copy_version", "policy_version", "agent", "model", "key"),
    CONSTRAINT "trend_rollups_level_check" CHECK ("level" IN (0, 1))
);

-- AddForeignKey
ALTER TABLE "trend_rollups" ADD CONSTRAINT "trend_rollups_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Back-fill from the buckets stored so far.
INSERT INTO "trend_rollups" ("project_id", "level", "bucket", "copy_version", "policy_version", "agent", "model", "key", "n")
SELECT b."project_id", l."level", b."bucket", b."copy_version", b."policy_version",
       CASE WHEN l."level" = 1 THEN coalesce(b."agent", '') ELSE '' END,
       CASE WHEN l."level" = 1 THEN coalesce(b."model", '') ELSE '' END,
       c."key", sum(c."value"::bigint)
  FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value") CROSS JOIN (VALUES (0), (1)) AS l("level")
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
HAVING sum(c."value"::bigint) <> 0;

-- The triggers: each adds or subtracts the statement's rows of trend_buckets (its transition table).
CREATE FUNCTION "trend_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "trend_rollups" AS r ("project_id", "level", "bucket", "copy_version", "policy_version", "agent", "model", "key", "n")
  SELECT b."project_id", l."level", b."bucket", b."copy_version", b."policy_version",
         CASE WHEN l."level" = 1 THEN coalesce(b."agent", '') ELSE '' END,
         CASE WHEN l."level" = 1 THEN coalesce(b."model", '') ELSE '' END,
         c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value") CROSS JOIN (VALUES (0), (1)) AS l("level")
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT ("project_id", "level", "bucket", "copy_version", "policy_version", "agent", "model", "key")
  DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

CREATE FUNCTION "trend_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Every row subtracted from was added with the buckets being removed, so it exists (unless its
  -- project is being deleted, which takes its rollups too).
  UPDATE "trend_rollups" AS r SET "n" = r."n" - g."n"
    FROM (
      SELECT b."project_id", l."level", b."bucket", b."copy_version", b."policy_version",
             CASE WHEN l."level" = 1 THEN coalesce(b."agent", '') ELSE '' END AS "agent",
             CASE WHEN l."level" = 1 THEN coalesce(b."model", '') ELSE '' END AS "model",
             c."key", sum(c."value"::bigint) AS "n"
        FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value") CROSS JOIN (VALUES (0), (1)) AS l("level")
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ) AS g
   WHERE (r."project_id", r."level", r."bucket", r."copy_version", r."policy_version", r."agent", r."model", r."key")
       = (g."project_id", g."level", g."bucket", g."copy_version", g."policy_version", g."agent", g."model", g."key");
  DELETE FROM "trend_rollups" AS r
   USING (SELECT DISTINCT b."project_id", b."bucket" FROM "removed" b) AS g
   WHERE r."project_id" = g."project_id" AND r."level" IN (0, 1) AND r."bucket" = g."bucket" AND r."n" = 0;
  RETURN NULL;
END $$;

CREATE FUNCTION "trend_buckets_no_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'trend_buckets rows are replaced (DELETE, then INSERT), never updated: trend_rollups sum them';
END $$;

CREATE TRIGGER "trend_buckets_rollup_add" AFTER INSERT ON "trend_buckets"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "trend_rollups_add"();
CREATE TRIGGER "trend_buckets_rollup_subtract" AFTER DELETE ON "trend_buckets"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "trend_rollups_subtract"();
CREATE TRIGGER "trend_buckets_no_update" BEFORE UPDATE ON "trend_buckets"
  FOR EACH ROW EXECUTE FUNCTION "trend_buckets_no_update"();
