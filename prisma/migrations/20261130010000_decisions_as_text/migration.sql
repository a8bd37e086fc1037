-- Rebuilt decisions are served as they are stored: keep them as JSON text, not jsonb, so a cached
-- answer is sent without being parsed and serialised again.
-- AlterTable
ALTER TABLE "run_decisions" ALTER COLUMN "decisions" SET DATA TYPE TEXT USING "decisions"::text;
