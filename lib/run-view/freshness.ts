import type { TRunListItem } from "@/lib/contracts";
import { formatCount } from "@/lib/format";

/** Whether a run's rebuilt figures are behind its stored events (rebuilds run in the background). */
export function isBehind(run: Pick<TRunListItem, "staleEvents" | "rebuildPending">): boolean {
  return run.rebuildPending || run.staleEvents > 0;
}

/** What to tell a reader of a run whose figures are behind; null when they are current. */
export function freshnessNote(run: Pick<TRunListItem, "staleEvents" | "rebuildPending" | "eventCount">): string | null {
  if (run.rebuildPending) return `Not rebuilt yet: the rebuild of its ${formatCount(run.eventCount, "event")} is queued.`;
  if (run.staleEvents > 0) return `Updating: ${formatCount(run.staleEvents, "newer event")} not in these figures yet.`;
  return null;
}
