-- Trend rollups: a project's trend counts per 15-minute UTC bucket summed over its runs, so the
-- trends read (lib/server/trends/trends.ts) touches rows in proportion to its window and the
-- versions and filters in it, not to how many runs are stored. 15 minutes stays fine enough to
-- regroup into any time zone's days (every real-world UTC offset is a multiple of 15 minutes).
--
-- Two tables, each row the exact sum of the run buckets (trend_buckets) it groups, by count key:
--   trend_rollups:       per bucket, copy version and policy version: the read without an agent or
--                        model filter (the page's default), and the versions in a window;
--   trend_agent_rollups: also per agent and model ('' for a run without one): the read filtered by
--                        agent or model.
-- n is the sum of that count key over the runs' buckets; a row whose sum falls to 0 is deleted, so
-- every row counts something. Each primary key also holds n (INCLUDE), so the read of a window is
-- an index-only scan of the key's range (project, bucket …) on pages vacuumed since their last change
-- (autovacuum: docs/operations.md), whatever else the table holds.
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
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "copy_version" TEXT NOT NULL,
    "policy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_rollups_pkey" PRIMARY KEY ("project_id", "bucket", "copy_version", "policy_version", "key") INCLUDE ("n")
);

-- CreateTable
CREATE TABLE "trend_agent_rollups" (
    "project_id" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "agent" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "copy_version" TEXT NOT NULL,
    "policy_version" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "trend_agent_rollups_pkey" PRIMARY KEY ("project_id", "bucket", "agent", "model", "copy_version", "policy_version", "key") INCLUDE ("n")
);

-- AddForeignKey
ALTER TABLE "trend_rollups" ADD CONSTRAINT "trend_rollups_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "trend_agent_rollups" ADD CONSTRAINT "trend_agent_rollups_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Back-fill from the buckets stored so far.
INSERT INTO "trend_rollups" ("project_id", "bucket", "copy_version", "policy_version", "key", "n")
SELECT b."project_id", b."bucket", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
  FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
 GROUP BY 1, 2, 3, 4, 5
HAVING sum(c."value"::bigint) <> 0;
INSERT INTO "trend_agent_rollups" ("project_id", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
SELECT b."project_id", b."bucket", coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
  FROM "trend_buckets" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
 GROUP BY 1, 2, 3, 4, 5, 6, 7
HAVING sum(c."value"::bigint) <> 0;

-- The triggers: each adds or subtracts the statement's rows of trend_buckets (its transition table),
-- in key order.
CREATE FUNCTION "trend_rollups_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "trend_rollups" AS r ("project_id", "bucket", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", b."bucket", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("project_id", "bucket", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  INSERT INTO "trend_agent_rollups" AS r ("project_id", "bucket", "agent", "model", "copy_version", "policy_version", "key", "n")
  SELECT b."project_id", b."bucket", coalesce(b."agent", ''), coalesce(b."model", ''), b."copy_version", b."policy_version", c."key", sum(c."value"::bigint)
    FROM "added" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
   GROUP BY 1, 2, 3, 4, 5, 6, 7
  HAVING sum(c."value"::bigint) <> 0
   ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT ("project_id", "bucket", "agent", "model", "copy_version", "policy_version", "key") DO UPDATE SET "n" = r."n" + EXCLUDED."n";
  RETURN NULL;
END $$;

CREATE FUNCTION "trend_rollups_subtract"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Every row subtracted from was added with the buckets being removed, so it exists (unless its
  -- project is being deleted, which takes its rollups too).
  UPDATE "trend_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", b."bucket", b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           GROUP BY 1, 2, 3, 4, 5) AS g
   WHERE (r."project_id", r."bucket", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."bucket", g."copy_version", g."policy_version", g."key");
  UPDATE "trend_agent_rollups" AS r SET "n" = r."n" - g."n"
    FROM (SELECT b."project_id", b."bucket", coalesce(b."agent", '') AS "agent", coalesce(b."model", '') AS "model",
                 b."copy_version", b."policy_version", c."key", sum(c."value"::bigint) AS "n"
            FROM "removed" b CROSS JOIN LATERAL jsonb_each_text(b."counts") AS c("key", "value")
           GROUP BY 1, 2, 3, 4, 5, 6, 7) AS g
   WHERE (r."project_id", r."bucket", r."agent", r."model", r."copy_version", r."policy_version", r."key")
       = (g."project_id", g."bucket", g."agent", g."model", g."copy_version", g."policy_version", g."key");
  DELETE FROM "trend_rollups" AS r USING (SELECT DISTINCT b."project_id", b."bucket" FROM "removed" b) AS g
   WHERE r."project_id" = g."project_id" AND r."bucket" = g."bucket" AND r."n" = 0;
  DELETE FROM "trend_agent_rollups" AS r USING (SELECT DISTINCT b."project_id", b."bucket" FROM "removed" b) AS g
   WHERE r."project_id" = g."project_id" AND r."bucket" = g."bucket" AND r."n" = 0;
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
