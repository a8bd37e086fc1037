import type { TRunListItem } from "@/lib/contracts";
import { formatCount } from "@/lib/format";

/**
 * What a run in the list has to look at, in words ("3 dropped reminders, 2 findings"), or null when
 * nothing: the runs that `]` / `[` step through on the runs list (docs/architecture.md#problem-keys).
 */
export function runProblems(run: Pick<TRunListItem, "reminders" | "findings" | "reviewerViolations">): string | null {
  const parts = [
    run.reminders.dropped > 0 ? formatCount(run.reminders.dropped, "dropped reminder") : null,
    run.findings > 0 ? formatCount(run.findings, "finding") : null,
    run.reviewerViolations ? formatCount(run.reviewerViolations, "Reviewer violation") : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(", ") : null;
}
