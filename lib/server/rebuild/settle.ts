import type { Database } from "@/lib/server/db";
import { rebuildRun } from "./rebuild-run";
import { staleRuns } from "./stale-runs";
import { inlineThreads, type Threads } from "@/lib/server/jobs/threads";
import { rebuildTask, type RebuildTasks } from "./rebuild-task";

/**
 * Rebuilds, here and now, every run whose stored rebuild is behind: what scripts do after loading
 * data (the demo, benchmarks) and what tests do after ingesting, instead of waiting for the queue.
 * Returns how many runs were rebuilt.
 */
export async function settleRebuilds(db: Database, options: { projectId?: string; threads?: Threads<RebuildTasks> } = {}): Promise<number> {
  const threads = options.threads ?? inlineThreads<RebuildTasks>({ rebuild: rebuildTask });
  let rebuilt = 0;
  for (const [projectId, runPks] of await staleRuns(db, { projectId: options.projectId })) {
    for (const runPk of runPks) {
      await rebuildRun(db, threads, projectId, runPk);
      rebuilt++;
    }
  }
  return rebuilt;
}
