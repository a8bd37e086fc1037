-- The Reviewer audit is stored at rebuild time instead of being recomputed on every read, and the
-- runs list gets an index for each of its filters and sorts.
--
-- reviewer_rows: each run's Reviewer rows (lib/reviewer/rows.ts) as JSON text, in the audit's own
-- order (ordinal), with the run's turn and a has-violations flag beside each. run_reviewer_funnels:
-- each run's funnel as flat counts (lib/reviewer/audit.ts), over all its rows and over its rows with
-- violations, which the project's funnel SUMs. Both are written in the transaction that stores the
-- run's decisions (lib/server/runs/run-decisions.ts) and go with their run (ON DELETE CASCADE).
--
-- Hand-written SQL (see README, "Migrations"). Three indexes here have no counterpart in
-- prisma/schema.prisma, whose index syntax has no NULLS LAST, no WHERE and no operator class; the
-- models' comments point here. A tool that diffs the schema against the database would offer to
-- drop them — keep them.

-- The cached decisions are derived data: cleared, so that every run is rebuilt once more on its
-- next read and gets its Reviewer audit stored with its decisions.
DELETE FROM "run_decisions";

-- CreateTable
CREATE TABLE "reviewer_rows" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "has_violations" BOOLEAN NOT NULL,
    "row" TEXT NOT NULL,

    CONSTRAINT "reviewer_rows_pkey" PRIMARY KEY ("project_id","run_pk","ordinal")
);

-- CreateTable
CREATE TABLE "run_reviewer_funnels" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "event_count" INTEGER NOT NULL,
    "counts" JSONB NOT NULL,
    "violation_counts" JSONB NOT NULL,
    "built_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_reviewer_funnels_pkey" PRIMARY KEY ("project_id","run_pk")
);

-- AddForeignKey
ALTER TABLE "reviewer_rows" ADD CONSTRAINT "reviewer_rows_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk") REFERENCES "runs"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "run_reviewer_funnels" ADD CONSTRAINT "run_reviewer_funnels_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk") REFERENCES "runs"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- `violations=1`: the rows with findings only, in the same (run, ordinal) order as the primary key.
CREATE INDEX "reviewer_rows_violations_idx" ON "reviewer_rows" ("project_id", "run_pk", "ordinal") WHERE "has_violations";

-- The runs list's sorts (list-runs.ts): started_at or max_turn, each way, nulls last, id tiebreak.
-- The ascending started_at index read backwards (DESC NULLS FIRST, id DESC) is the Reviewer audit's
-- newest-run-first order (list-candidates.ts). It replaces the index on (project_id, started_at DESC).
DROP INDEX "runs_project_id_started_at_idx";
CREATE INDEX "runs_project_started_asc_idx" ON "runs" ("project_id", "started_at", "id");
CREATE INDEX "runs_project_started_desc_idx" ON "runs" ("project_id", "started_at" DESC NULLS LAST, "id" DESC);
CREATE INDEX "runs_project_turns_asc_idx" ON "runs" ("project_id", "max_turn", "id");
CREATE INDEX "runs_project_turns_desc_idx" ON "runs" ("project_id", "max_turn" DESC NULLS LAST, "id" DESC);

-- The runs list's filters (run-filters.ts): status has its index already, run_id its unique key.
CREATE INDEX "runs_project_id_agent_idx" ON "runs" ("project_id", "agent");
CREATE INDEX "runs_project_id_model_idx" ON "runs" ("project_id", "model");

-- `q`, the task search (task ILIKE '%text%'): trigram GIN. pg_trgm is a trusted extension
-- (PostgreSQL 13+): a database owner may create it without superuser rights. PGlite has it compiled
-- in and loads it when opened (lib/server/db/connect.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "runs_task_trgm_idx" ON "runs" USING gin ("task" gin_trgm_ops);
