-- A zoomed timeline reads only what its window needs (lib/server/runs/timeline-events.ts): among
-- them the run's Reviewer events as keys, through this partial index that holds only those rows,
-- so the read does not walk the run's other events (meters, requests: about 94 % of a run's events).
-- (The run.started is found through "events_one_run_started_per_run".)
CREATE INDEX "events_reviewer_idx" ON "events" ("project_id", "run_pk", "turn")
  WHERE "type" IN ('reviewer.candidate', 'reviewer.admission', 'reviewer.dispatched', 'reviewer.completed', 'reviewer.cancelled');
