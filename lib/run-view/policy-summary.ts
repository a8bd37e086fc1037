import type { TPolicy } from "@/lib/contracts";
import { formatBytes, formatEdits, formatMs, formatNumber, formatPercent, formatRequests, formatTurnCount } from "@/lib/format";

export interface PolicyPart {
  key: "requests" | "time" | "context" | "edits" | "review" | "reviewer";
  /** The limit in the meter's own unit, e.g. "60 requests (6 reserved)". */
  text: string;
  /** The stage thresholds, for the tooltip, e.g. "stages at 50% · 75% · 90% of 54 usable requests". */
  detail: string;
}

const stagesText = (stages: readonly number[]) => stages.map((s) => formatPercent(s)).join(" · ");

/**
 * The run's policy as one short part per section, each limit in its own unit and never added to
 * another: "60 requests (6 reserved)", "30 min", "200,000 B", "4 edits/block", "review every
 * 10 turns / 10 min", "Reviewer auto-review on, ≥ 8 requests left". Sections the policy lacks are
 * left out (that meter is off).
 */
export function policySummary(policy: TPolicy | null): PolicyPart[] {
  if (!policy) return [];
  const parts: PolicyPart[] = [];
  const { requests, time, context, edits, review, reviewer } = policy;
  if (requests) {
    const usable = requests.limit - requests.deliveryReserve;
    parts.push({
      key: "requests",
      text: `${formatRequests(requests.limit)}${requests.deliveryReserve ? ` (${formatNumber(requests.deliveryReserve)} reserved)` : ""}`,
      detail: `requests: stages at ${stagesText(requests.stages)} of ${formatRequests(usable)} usable`,
    });
  }
  if (time)
    parts.push({
      key: "time",
      text: formatMs(time.limitMs),
      detail: `time: stages at ${stagesText(time.stages)} of ${formatMs(time.limitMs)}`,
    });
  if (context) {
    parts.push({
      key: "context",
      text: formatBytes(context.capacityBytes),
      detail: `context: stages at ${stagesText(context.stages)} of ${formatBytes(context.capacityBytes)} per request`,
    });
  }
  if (edits) {
    parts.push({
      key: "edits",
      text: `${formatEdits(edits.perBlockLimit)}/block`,
      detail: `edits: stages at ${stagesText(edits.stages)} of each block's limit`,
    });
  }
  if (review && (review.everyTurns !== undefined || review.afterMs !== undefined)) {
    const every = [
      review.everyTurns !== undefined ? formatTurnCount(review.everyTurns) : null,
      review.afterMs !== undefined ? formatMs(review.afterMs) : null,
    ]
      .filter((x): x is string => x !== null)
      .join(" / ");
    parts.push({
      key: "review",
      text: `review every ${every}`,
      detail: "review: a checkpoint suggestion each time a new checkpoint is reached",
    });
  }
  if (reviewer) {
    parts.push({
      key: "reviewer",
      text: `Reviewer auto-review ${reviewer.autoReviewAllowed ? "on" : "off"}, ≥ ${formatRequests(reviewer.minRequestsLeft)} left`,
      detail: "Reviewer: admission needs auto review allowed, enough requests left and no review in progress (R13)",
    });
  }
  return parts;
}
