-- A run's rebuilt turns are stored in chunks of DECISION_CHUNK_TURNS (256) turns
-- (lib/server/runs/decision-chunks.ts), so that a read about one turn or a window of turns reads the
-- chunks that hold them rather than the whole run's decisions (tens of MB for a long run), and a
-- resumed rebuild writes only the chunks from its first changed turn on. The findings stay in
-- run_decisions, as one JSON text (they are few).
CREATE TABLE "run_decision_chunks" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "chunk" INTEGER NOT NULL,
    "first_turn" INTEGER NOT NULL,
    "last_turn" INTEGER NOT NULL,
    "turn_count" INTEGER NOT NULL,
    "turns" TEXT NOT NULL,

    CONSTRAINT "run_decision_chunks_pkey" PRIMARY KEY ("project_id", "run_pk", "chunk")
);
CREATE INDEX "run_decision_chunks_project_id_run_pk_first_turn_idx" ON "run_decision_chunks"("project_id", "run_pk", "first_turn");
CREATE INDEX "run_decision_chunks_project_id_run_pk_last_turn_idx" ON "run_decision_chunks"("project_id", "run_pk", "last_turn");
ALTER TABLE "run_decision_chunks" ADD CONSTRAINT "run_decision_chunks_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "run_decisions" ("project_id", "run_pk") ON DELETE CASCADE ON UPDATE NO ACTION;

-- Rows stored before have their decisions as one text and no chunks. They are derived data, and
-- splitting them in SQL would not give the JSON text the rebuild writes (jsonb reorders keys), so
-- they are reset rather than converted: a row with decisions is deleted, which reads treat as "not
-- rebuilt yet" (pending) and the sweep of stale runs (lib/server/jobs/stale-runs.ts: no row) rebuilds
-- in the background. A row without decisions (a rebuild that failed, with its error) is kept: it
-- has no turns to move, and its run is not rebuilt again until it gets new events.
DELETE FROM "run_decisions" WHERE "decisions" IS NOT NULL;
ALTER TABLE "run_decisions" DROP COLUMN "decisions";
ALTER TABLE "run_decisions" ADD COLUMN "findings" TEXT;
