import { ZEvent, type TReviewerFunnel } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { DEMO_RUNS, demoRuns } from "@/lib/demo/demo-set";
import { reviewerFunnel } from "@/lib/derived/reviewer/funnel";
import { reviewerRows, type ReviewerRow } from "@/lib/derived/reviewer/rows";

/** The demo runs' Reviewer funnel for a selection of runs, and how many of their rows carry a finding. */
export interface DemoReviewer {
  funnel: TReviewerFunnel;
  violations: number;
  /** The review queue's candidates: dispatched, with a finding, or due by the rebuild only (docs/reviews.md). */
  queue: number;
}

/**
 * What the Reviewer page must show for the demo project, computed here from the demo generator
 * (lib/demo, the data `scripts/start.sh` loads) and the pure core: each run's events read through
 * the event contract, rebuilt (lib/core), its Reviewer rows (every event passed, not the server's
 * picked types) and the funnel over them. The server's path (ingest, storage, the background
 * rebuild, the stored counts summed in SQL, the page) plays no part. The runs' times do not change
 * the rows: `now` only places them.
 */
export function demoReviewer(select: (run: (typeof DEMO_RUNS)[number]) => boolean = () => true): DemoReviewer {
  const rows = DEMO_RUNS.flatMap((options, index) => (select(options) ? rowsOfRun()[index] : []));
  return {
    funnel: reviewerFunnel(rows),
    violations: rows.filter((row) => row.findings.length > 0).length,
    queue: rows.filter((row) => row.dispatches.length > 0 || row.findings.length > 0 || row.source === "rebuilt").length,
  };
}

let cached: ReviewerRow[][] | undefined;

/** Each demo run's Reviewer rows, in DEMO_RUNS' order (generated and rebuilt once: a few seconds). */
function rowsOfRun(): ReviewerRow[][] {
  return (cached ??= demoRuns(new Date().toISOString()).map(({ events: raw }) => {
    const events = raw.map((event) => ZEvent.parse(event));
    return reviewerRows(events, rebuild(events));
  }));
}
