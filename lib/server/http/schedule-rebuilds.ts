import "server-only";
import { getBackground } from "@/lib/server/background/background";

/**
 * What an ingesting route does once events are stored: schedule the rebuilds of the runs that got
 * them. The events are stored whatever happens next: a rebuild that cannot be scheduled now is found
 * by the background sweep of stale runs.
 */
export function scheduleRebuildsOf(projectId: string): (runPks: readonly string[]) => Promise<void> {
  return (runPks) =>
    getBackground()
      .then(({ queue }) => queue.scheduleRebuilds(projectId, runPks))
      .catch((error) => console.error("[cuescope] scheduling rebuilds failed:", error));
}
