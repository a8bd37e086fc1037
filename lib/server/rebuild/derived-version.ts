/**
 * The version of what a rebuild derives and stores beside the decisions (run_decisions'
 * `derived_version`). Raise it when a rebuild starts storing something new for every run: rows of
 * an older version are rebuilt in full by the sweep of stale runs (./stale-runs.ts) and never
 * resumed, so every stored run gets the new data without a migration computing it.
 *
 * 1: triage marks and counts (run_triage_marks, run_decisions.triage_counts).
 * 2: the run's long Reviewer chains (run_decisions.reviewer_spans), a zoomed timeline's index.
 * 3: the run's experiment row (experiment_runs, lib/server/rebuild/experiment-runs.ts).
 * 4: the run's decision digests per bucket of turns (run_decision_digests), for run comparison.
 * 5: the run's search terms (search inside runs), its projected turns to the requests and time
 *    limits on its row (the "runs out within N turns" alert rule) and the check of its projection
 *    in its summary (summary.projectionCheck).
 * 6: review suggestions' follow-up counts for every checkpoint together (contract §10: `effect.review.all.*`
 *    in the trend buckets and summary.effectCounts, instead of one count per checkpoint).
 */
export const DERIVED_VERSION = 6;

/** The first DERIVED_VERSION whose rows have decision digests (run comparison waits for it). */
export const DIGESTS_SINCE_VERSION = 4;

/** The first DERIVED_VERSION whose rows have a search index (run_search_terms; the search answers `indexed: false` before). */
export const SEARCH_SINCE_VERSION = 5;
