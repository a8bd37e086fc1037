-- A run's OpenTelemetry records counted per kind, with its model requests' token sums, kept as the
-- records are stored, so the run page's OpenTelemetry panel reads one row per kind instead of
-- counting and summing every record of the run on each read (a long run has one model request per
-- turn: 50,000 JSON documents read for one page).
--
-- otlp_run_totals: per project, run id and kind, the records stored and, for `model_request`, the sums
-- of their data's inputTokens and outputTokens (numbers, as `sum((data->>'inputTokens')::numeric)`
-- summed them; null tokens add nothing). Kept by statement-level triggers on otlp_records, as the
-- experiment rollups are (migration 20261228000100_experiment_runs): an INSERT adds its new rows (a
-- record already stored is not inserted again: ON CONFLICT DO NOTHING), a DELETE (a project deleted,
-- by cascade) subtracts its rows; a total brought to 0 records is deleted. Records are never updated.

-- CreateTable
CREATE TABLE "otlp_run_totals" (
    "project_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "records" BIGINT NOT NULL,
    "input_tokens" DECIMAL NOT NULL,
    "output_tokens" DECIMAL NOT NULL,

    CONSTRAINT "otlp_run_totals_pkey" PRIMARY KEY ("project_id", "run_id", "kind")
);
ALTER TABLE "otlp_run_totals" ADD CONSTRAINT "otlp_run_totals_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Each statement is run by EXECUTE, so planned on every call with the totals' current size, and in
-- key order, so two exports of the same run wait on each other's rows in the same order.
CREATE FUNCTION "otlp_run_totals_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $q$INSERT INTO "otlp_run_totals" AS t ("project_id", "run_id", "kind", "records", "input_tokens", "output_tokens")
  SELECT a."project_id", a."run_id", a."kind", count(*),
         coalesce(sum((a."data"->>'inputTokens')::numeric) FILTER (WHERE a."kind" = 'model_request'), 0),
         coalesce(sum((a."data"->>'outputTokens')::numeric) FILTER (WHERE a."kind" = 'model_request'), 0)
    FROM "added" a
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT ("project_id", "run_id", "kind") DO UPDATE
     SET "records" = t."records" + EXCLUDED."records",
         "input_tokens" = t."input_tokens" + EXCLUDED."input_tokens",
         "output_tokens" = t."output_tokens" + EXCLUDED."output_tokens"$q$;
  RETURN NULL;
END $$;

CREATE FUNCTION "otlp_run_totals_subtract"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $q$UPDATE "otlp_run_totals" AS t
     SET "records" = t."records" - g."records", "input_tokens" = t."input_tokens" - g."input_tokens",
         "output_tokens" = t."output_tokens" - g."output_tokens"
    FROM (SELECT o."project_id", o."run_id", o."kind", count(*) AS "records",
                 coalesce(sum((o."data"->>'inputTokens')::numeric) FILTER (WHERE o."kind" = 'model_request'), 0) AS "input_tokens",
                 coalesce(sum((o."data"->>'outputTokens')::numeric) FILTER (WHERE o."kind" = 'model_request'), 0) AS "output_tokens"
            FROM "removed" o GROUP BY 1, 2, 3) AS g
   WHERE (t."project_id", t."run_id", t."kind") = (g."project_id", g."run_id", g."kind")$q$;
  EXECUTE $q$DELETE FROM "otlp_run_totals" AS t
   USING (SELECT DISTINCT o."project_id", o."run_id" FROM "removed" o) AS g
   WHERE (t."project_id", t."run_id") = (g."project_id", g."run_id") AND t."records" <= 0$q$;
  RETURN NULL;
END $$;

CREATE TRIGGER "otlp_records_totals_add" AFTER INSERT ON "otlp_records"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "otlp_run_totals_add"();
CREATE TRIGGER "otlp_records_totals_subtract" AFTER DELETE ON "otlp_records"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "otlp_run_totals_subtract"();

-- The records stored before this migration.
INSERT INTO "otlp_run_totals" ("project_id", "run_id", "kind", "records", "input_tokens", "output_tokens")
SELECT "project_id", "run_id", "kind", count(*),
       coalesce(sum(("data"->>'inputTokens')::numeric) FILTER (WHERE "kind" = 'model_request'), 0),
       coalesce(sum(("data"->>'outputTokens')::numeric) FILTER (WHERE "kind" = 'model_request'), 0)
  FROM "otlp_records"
 GROUP BY 1, 2, 3;
