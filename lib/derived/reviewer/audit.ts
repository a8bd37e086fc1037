import { ZReviewerFunnel, type TEvent, type TReviewerFunnel, type TRunDecisions } from "@/lib/contracts";
import { reviewerFunnel } from "./funnel";
import { reviewerRows, type ReviewerRow } from "./rows";
import { REVIEWER_LANE_EVENT_TYPES } from "./window-events";

/**
 * The events the Reviewer rows read: the run's start, compactions, the Reviewer flow and
 * notifications (the run page's timeline types, TIMELINE_EVENT_TYPES in lib/derived/timeline, which builds
 * on this folder and so is not imported here; a test keeps this set a superset of it) plus the
 * requests readings, which are "the facts of the turn" R13's budget condition is evaluated on
 * (without them every rule verdict would see no reading and take the budget as holding). Other
 * events change nothing in the rows; leaving them out makes the walk cheaper.
 */
export const REVIEWER_EVENT_TYPES: ReadonlySet<string> = new Set([
  "run.started",
  "context.compaction",
  ...REVIEWER_LANE_EVENT_TYPES,
  "user.notified",
  "meter.requests",
]);

/**
 * A run's funnel as flat counts: `group.field` for a plain count (`candidates.total`),
 * `group.field.key` for a count in a record (`admissions.deniedByReason.budget`), `violations.CODE`
 * for a finding code. Zero counts are left out. The funnel is a sum over rows, so the counts of
 * several runs add up, key by key, to the counts of the funnel over all their rows: the project's
 * funnel is one SQL SUM over the runs' stored counts (see funnelFromCounts).
 */
export type FunnelCounts = Record<string, number>;

/** What the rebuild stores of a run's Reviewer audit (lib/server/reviewer/store-audit.ts writes it). */
export interface ReviewerAudit {
  /** The run's Reviewer rows, in their order (by turn, then candidate id). */
  rows: ReviewerRow[];
  /** The funnel over all the rows, as counts. */
  funnel: FunnelCounts;
  /** The funnel over the rows with violations only (the Reviewer page's "violations only"). */
  violationsFunnel: FunnelCounts;
}

/**
 * The Reviewer audit of one run, from its events (any order, any types: the ones the rows read are
 * picked here) and its rebuilt decisions. Pure: the rebuild computes it next to the decisions and
 * one transaction stores both.
 */
export function reviewerAudit(events: readonly TEvent[], decisions: TRunDecisions): ReviewerAudit {
  const rows = reviewerRows(
    events.filter((event) => REVIEWER_EVENT_TYPES.has(event.type)),
    decisions,
  );
  return {
    rows,
    funnel: funnelCounts(reviewerFunnel(rows)),
    violationsFunnel: funnelCounts(reviewerFunnel(rows.filter(hasViolations))),
  };
}

/** Whether a row carries any Reviewer finding (what `violations=1` keeps). */
export function hasViolations(row: Pick<ReviewerRow, "findings">): boolean {
  return row.findings.length > 0;
}

/** A funnel as flat counts (see FunnelCounts). */
export function funnelCounts(funnel: TReviewerFunnel): FunnelCounts {
  const counts: FunnelCounts = {};
  const put = (key: string, n: number | undefined) => {
    if (n) counts[key] = n;
  };
  for (const [group, fields] of Object.entries(funnel) as [string, Record<string, number | Record<string, number>>][]) {
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === "number" || value === undefined) put(`${group}.${name}`, value);
      else for (const [key, n] of Object.entries(value)) put(`${group}.${name}.${key}`, n);
    }
  }
  return counts;
}

/**
 * The funnel that summed flat counts stand for: every count the funnel has is there, zero when
 * absent. A key no funnel has throws (the counts are written by funnelCounts only).
 */
export function funnelFromCounts(counts: Iterable<readonly [string, number]>): TReviewerFunnel {
  const funnel = reviewerFunnel([]);
  const groups = funnel as unknown as Record<string, Record<string, number | Record<string, number>>>;
  for (const [key, n] of counts) {
    const dot = key.indexOf(".");
    const group = groups[key.slice(0, dot)];
    if (dot < 0 || !group) throw new Error(`not a Reviewer funnel count: ${JSON.stringify(key)}`);
    const rest = key.slice(dot + 1);
    if (group === groups.violations) {
      group[rest] = n;
      continue;
    }
    const next = rest.indexOf(".");
    const name = next < 0 ? rest : rest.slice(0, next);
    const field = Object.hasOwn(group, name) ? group[name] : undefined;
    if (next < 0 && typeof field === "number") group[name] = n;
    else if (next >= 0 && typeof field === "object") field[rest.slice(next + 1)] = n;
    else throw new Error(`not a Reviewer funnel count: ${JSON.stringify(key)}`);
  }
  return ZReviewerFunnel.parse(funnel);
}
