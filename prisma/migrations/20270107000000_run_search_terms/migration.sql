-- Search inside a run (docs/search.md): the rebuild stores a search index per bucket of 256 turn
-- numbers (lib/derived/search/search-terms.ts): for each kind of term (a reminder's normalized text,
-- a finding code, an action kind, a block id) and term found in the bucket, the mask of its turns
-- (64 hexadecimal digits, lib/derived/search/turn-mask.ts). A search walks the run's distinct
-- (kind, term) through the key, one probe each, and reads the rows of the terms that match, never the
-- run's decisions or events. A resume deletes the rows from its first rewritten bucket on through
-- the bucket index. Runs rebuilt before have none: DERIVED_VERSION 5 has the sweep of stale runs
-- rebuild them in full, and until then the search answers `indexed: false`.
CREATE TABLE "run_search_terms" (
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "term" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "folded" TEXT NOT NULL,
    "mask" TEXT NOT NULL,

    CONSTRAINT "run_search_terms_pkey" PRIMARY KEY ("project_id", "run_pk", "kind", "term", "bucket"),
    CONSTRAINT "run_search_terms_kind_check" CHECK ("kind" IN ('text', 'finding', 'action', 'block')),
    CONSTRAINT "run_search_terms_mask_check" CHECK ("mask" ~ '^[0-9a-f]{64}$')
);
CREATE INDEX "run_search_terms_bucket_idx" ON "run_search_terms" ("project_id", "run_pk", "bucket");
ALTER TABLE "run_search_terms" ADD CONSTRAINT "run_search_terms_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk")
  REFERENCES "run_decisions" ("project_id", "run_pk") ON DELETE CASCADE ON UPDATE NO ACTION;
