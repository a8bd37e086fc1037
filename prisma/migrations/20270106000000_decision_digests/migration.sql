-- Run comparison (docs/compare.md) finds the first turn where two runs' decisions differ without
-- reading either run whole: the rebuild stores a digest of each bucket of 256 turn numbers of a run's
-- decisions (lib/derived/compare/decision-digests.ts), so two runs are compared bucket by bucket
-- through this key, and only the chunks of a bucket whose digests differ are read. Runs rebuilt before
-- have none: DERIVED_VERSION 4 has the sweep of stale runs rebuild them in full.
CREATE TABLE "run_decision_digests" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,

    CONSTRAINT "run_decision_digests_pkey" PRIMARY KEY ("project_id", "run_pk", "bucket")
);
ALTER TABLE "run_decision_digests" ADD CONSTRAINT "run_decision_digests_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "run_decisions" ("project_id", "run_pk") ON DELETE CASCADE ON UPDATE NO ACTION;
