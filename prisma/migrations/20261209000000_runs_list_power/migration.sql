-- The runs list sorts by findings, dropped reminders and drop rate, and filters by "has Reviewer
-- violations", "has drops" and a finding code (lib/server/runs/list-runs.ts, run-filters.ts,
-- run-filter-sql.ts). Those figures come from a run's stored rebuild: the rebuild job writes them on
-- the run's row in the transaction that stores its decisions (lib/server/jobs/rebuild-run.ts), so a
-- sort or filter is an index read on one table. NULL until the run has a successful rebuild (such
-- runs sort last in either direction).
ALTER TABLE "runs"
  ADD COLUMN "finding_count" INTEGER,
  ADD COLUMN "dropped_count" INTEGER,
  -- dropped / every reminder the rebuild decided (delivered, dropped, failed, uncertain, pending);
  -- NULL without reminders.
  ADD COLUMN "drop_rate" DOUBLE PRECISION,
  -- The run's Reviewer rows that carry a Reviewer finding (the audit's `violations=1`).
  ADD COLUMN "reviewer_violations" INTEGER,
  -- The finding codes the run has at least one of (none before a successful rebuild).
  ADD COLUMN "finding_codes" TEXT[] NOT NULL DEFAULT '{}';

-- Runs rebuilt before this migration: the same figures from their stored summary and Reviewer rows.
UPDATE "runs" AS r SET
  "finding_count" = (d."summary"->>'findings')::int,
  "dropped_count" = (d."summary"->'reminders'->>'dropped')::int,
  "drop_rate" = CASE WHEN t.total > 0 THEN (d."summary"->'reminders'->>'dropped')::float8 / t.total END,
  "reviewer_violations" = (
    SELECT count(*)::int FROM "reviewer_rows" v
     WHERE v."project_id" = r."project_id" AND v."run_pk" = r."id" AND v."has_violations"
  ),
  "finding_codes" = ARRAY(
    SELECT c.code FROM jsonb_each(COALESCE(d."summary"->'findingsByCode', '{}'::jsonb)) AS c(code, n)
     WHERE jsonb_typeof(c.n) = 'number' AND (c.n)::text::float8 > 0 ORDER BY c.code
  )
  FROM "run_decisions" AS d,
       LATERAL (
         SELECT COALESCE((d."summary"->'reminders'->>'delivered')::float8, 0) + COALESCE((d."summary"->'reminders'->>'dropped')::float8, 0)
              + COALESCE((d."summary"->'reminders'->>'failed')::float8, 0) + COALESCE((d."summary"->'reminders'->>'uncertain')::float8, 0)
              + COALESCE((d."summary"->'reminders'->>'pending')::float8, 0) AS total
       ) AS t
 WHERE d."project_id" = r."project_id" AND d."run_pk" = r."id"
   AND d."summary" IS NOT NULL AND jsonb_typeof(d."summary") = 'object' AND d."findings" IS NOT NULL
   AND jsonb_typeof(d."summary"->'findings') = 'number' AND jsonb_typeof(d."summary"->'reminders') = 'object';

-- The sorts, ascending (NULLs last) and descending with NULLs last, with the id tiebreak, like
-- started_at's and max_turn's (20261202000000_stored_reviewer_audit).
CREATE INDEX "runs_project_findings_asc_idx" ON "runs" ("project_id", "finding_count", "id");
CREATE INDEX "runs_project_findings_desc_idx" ON "runs" ("project_id", "finding_count" DESC NULLS LAST, "id" DESC);
CREATE INDEX "runs_project_dropped_asc_idx" ON "runs" ("project_id", "dropped_count", "id");
CREATE INDEX "runs_project_dropped_desc_idx" ON "runs" ("project_id", "dropped_count" DESC NULLS LAST, "id" DESC);
CREATE INDEX "runs_project_drop_rate_asc_idx" ON "runs" ("project_id", "drop_rate", "id");
CREATE INDEX "runs_project_drop_rate_desc_idx" ON "runs" ("project_id", "drop_rate" DESC NULLS LAST, "id" DESC);
-- The filters: a finding code (finding_codes @> ARRAY[code]), and the two flags, newest first.
CREATE INDEX "runs_finding_codes_idx" ON "runs" USING gin ("finding_codes");
CREATE INDEX "runs_project_violations_started_idx" ON "runs" ("project_id", "started_at" DESC NULLS LAST, "id" DESC) WHERE "reviewer_violations" > 0;
CREATE INDEX "runs_project_drops_started_idx" ON "runs" ("project_id", "started_at" DESC NULLS LAST, "id" DESC) WHERE "dropped_count" > 0;

-- Saved named views of the runs list and the Reviewer audit: a page's URL query under a name, per
-- project (lib/server/views/saved-views.ts).
CREATE TABLE "saved_views" (
  "id" TEXT NOT NULL,
  "project_id" TEXT NOT NULL,
  -- runs | reviewer
  "page" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  -- The page's URL query without its leading "?" (no cursor).
  "query" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "saved_views_pkey" PRIMARY KEY ("project_id", "id"),
  CONSTRAINT "saved_views_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "saved_views_project_id_page_name_key" ON "saved_views" ("project_id", "page", "name");
