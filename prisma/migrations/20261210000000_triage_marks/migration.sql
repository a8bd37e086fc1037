-- The run page's triage bar (previous/next dropped reminder, finding, failed or uncertain delivery)
-- steps through stored marks: one row per turn and kind of a run's last rebuild, so a step is one
-- index lookup however long the run (docs/architecture.md#run-triage).
CREATE TABLE "run_triage_marks" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "turn" INTEGER NOT NULL,

    CONSTRAINT "run_triage_marks_pkey" PRIMARY KEY ("project_id", "run_pk", "kind", "turn"),
    CONSTRAINT "run_triage_marks_kind_check" CHECK ("kind" IN ('drop', 'finding', 'delivery'))
);
ALTER TABLE "run_triage_marks" ADD CONSTRAINT "run_triage_marks_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "run_decisions" ("project_id", "run_pk") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The rebuild's counts of each kind, and the version of what a rebuild derives beside the decisions.
-- Rows stored before have version 0 and no marks: the sweep of stale runs
-- (lib/server/jobs/stale-runs.ts) rebuilds them in full in the background, as it does a run whose
-- events are ahead of its rebuild; until then the triage bar says it is not ready.
ALTER TABLE "run_decisions" ADD COLUMN "triage_counts" JSONB;
ALTER TABLE "run_decisions" ADD COLUMN "derived_version" INTEGER NOT NULL DEFAULT 0;
