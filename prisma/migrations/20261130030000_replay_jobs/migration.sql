-- CreateTable
CREATE TABLE "replay_jobs" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "copy_version_id" TEXT,
    "policy_version_id" TEXT,
    "filters" JSONB NOT NULL,
    "input_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "total_runs" INTEGER NOT NULL DEFAULT 0,
    "done_runs" INTEGER NOT NULL DEFAULT 0,
    "total_turns" INTEGER NOT NULL DEFAULT 0,
    "done_turns" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "replay_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "replay_jobs_project_id_input_key_idx" ON "replay_jobs"("project_id", "input_key");

-- AddForeignKey
ALTER TABLE "replay_jobs" ADD CONSTRAINT "replay_jobs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
