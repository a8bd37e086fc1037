-- A zoomed timeline finds the Reviewer chains that touch or span its window without reading the
-- run's Reviewer events outside it (lib/server/runs/timeline-events.ts): the rebuild stores the run's
-- long chains (lib/reviewer/window-events.ts, longReviewerChains) as JSON text, and the chains'
-- other events are found by their candidateId and dispatchId through these partial indexes.
-- Rows stored before have none (NULL): their windows read every Reviewer event's keys until the
-- run is rebuilt (DERIVED_VERSION 2 rebuilds them).
ALTER TABLE "run_decisions" ADD COLUMN "reviewer_spans" TEXT;
CREATE INDEX "events_reviewer_candidate_idx" ON "events" ("project_id", "run_pk", ("body" ->> 'candidateId'))
  WHERE "type" IN ('reviewer.candidate', 'reviewer.admission', 'reviewer.dispatched', 'reviewer.cancelled');
CREATE INDEX "events_reviewer_dispatch_idx" ON "events" ("project_id", "run_pk", ("body" ->> 'dispatchId'))
  WHERE "type" IN ('reviewer.dispatched', 'reviewer.completed');
