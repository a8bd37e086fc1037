-- The Reviewer audit's sorts (lib/server/reviewer/list-candidates.ts). Besides its default order
-- (newest run first, read through the runs' started_at index), the audit sorts by the candidates
-- with the most Reviewer findings first. That order is kept on the rows themselves so one index
-- answers it a page at a time, whatever the page's position:
--
-- violation_count: the row's Reviewer findings (the length of its JSON "findings").
-- run_started_ms:  its run's started_at in epoch milliseconds at the rebuild that wrote the row, the
--                  tiebreak (newest run first); a run without a start sorts first, as in the
--                  default order, by standing at the largest bigint. A run's start comes with an
--                  event, and every event schedules a rebuild that rewrites the run's rows.
--
-- Hand-written SQL (see README, "Migrations"): the index's DESC columns are declared in
-- prisma/schema.prisma too; the rows already stored are filled in here.

ALTER TABLE "reviewer_rows" ADD COLUMN "violation_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "reviewer_rows" ADD COLUMN "run_started_ms" BIGINT NOT NULL DEFAULT 9223372036854775807;

UPDATE "reviewer_rows" AS rr
   SET "violation_count" = COALESCE(jsonb_array_length(rr."row"::jsonb -> 'findings'), 0),
       "run_started_ms" = COALESCE((extract(epoch FROM r."started_at") * 1000)::bigint, 9223372036854775807)
  FROM "runs" AS r
 WHERE r."project_id" = rr."project_id" AND r."id" = rr."run_pk";

CREATE INDEX "reviewer_rows_by_violations_idx"
    ON "reviewer_rows" ("project_id", "violation_count" DESC, "run_started_ms" DESC, "run_pk" DESC, "ordinal");
