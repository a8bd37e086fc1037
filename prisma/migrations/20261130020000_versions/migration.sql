-- AlterTable
ALTER TABLE "projects" ADD COLUMN "default_copy_version_id" TEXT,
ADD COLUMN "default_policy_version_id" TEXT;

-- CreateTable
CREATE TABLE "copy_versions" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "note" TEXT,
    "saved_by" TEXT NOT NULL,
    "parent_id" TEXT,
    "copy" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "copy_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "policy_versions" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "note" TEXT,
    "saved_by" TEXT NOT NULL,
    "parent_id" TEXT,
    "policy" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "copy_versions_project_id_name_key" ON "copy_versions"("project_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "policy_versions_project_id_name_key" ON "policy_versions"("project_id", "name");

-- AddForeignKey
ALTER TABLE "copy_versions" ADD CONSTRAINT "copy_versions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policy_versions" ADD CONSTRAINT "policy_versions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
