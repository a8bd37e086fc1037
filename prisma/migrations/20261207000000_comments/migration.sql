-- Comments on a run or on one of its turns (docs/comments.md). The author is the API key the caller
-- used, kept by id without a foreign key (api_keys is a reference table) and by its name at the time.
-- runs.comment_count is kept in the same transaction as each comment write, so the runs list reads
-- a run's count from its own row.
ALTER TABLE "runs" ADD COLUMN "comment_count" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "comments" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "run_pk" TEXT NOT NULL,
    "turn" INTEGER,
    "author_key_id" TEXT NOT NULL,
    "author_name" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "edited_at" TIMESTAMPTZ(3),

    CONSTRAINT "comments_pkey" PRIMARY KEY ("project_id", "id")
);
CREATE INDEX "comments_project_id_run_pk_created_at_id_idx" ON "comments"("project_id", "run_pk", "created_at", "id");
CREATE INDEX "comments_project_id_run_pk_turn_created_at_id_idx" ON "comments"("project_id", "run_pk", "turn", "created_at", "id");
ALTER TABLE "comments" ADD CONSTRAINT "comments_project_id_run_pk_fkey" FOREIGN KEY ("project_id", "run_pk") REFERENCES "runs"("project_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
