-- The runs list's `q` searches the run id, task, agent and model (each ILIKE '%text%', OR-ed).
-- Each column gets a trigram GIN index like the task's (20261202000000_stored_reviewer_audit), so
-- the search is a BitmapOr of index scans instead of a scan of the project's runs.
CREATE INDEX "runs_run_id_trgm_idx" ON "runs" USING gin ("run_id" gin_trgm_ops);
CREATE INDEX "runs_agent_trgm_idx" ON "runs" USING gin ("agent" gin_trgm_ops);
CREATE INDEX "runs_model_trgm_idx" ON "runs" USING gin ("model" gin_trgm_ops);
