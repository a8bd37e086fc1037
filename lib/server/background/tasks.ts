import { TaskThreads, type TaskFunctions } from "@/lib/server/jobs/threads";
import { rebuildTask, type RebuildTasks } from "@/lib/server/rebuild/rebuild-task";
import { replayRunTask, whatIfRunTask, type ReplayTasks } from "@/lib/server/replay/replay-task";

/**
 * The CPU-heavy work jobs hand to threads, by name: every feature's tasks (each feature declares
 * its own map, the port it takes threads as). Each a pure function of structured-cloneable input to
 * structured-cloneable output (no database, no shared state), so it gives the same answer on a
 * thread or inline.
 */
export type Tasks = RebuildTasks & ReplayTasks;

export const TASKS: TaskFunctions<Tasks> = {
  rebuild: rebuildTask,
  replayRun: replayRunTask,
  whatIfRun: whatIfRunTask satisfies (input: ReplayTasks["whatIfRun"]["input"]) => ReplayTasks["whatIfRun"]["output"],
};

/** This process's job threads for every task (`size` 0: inline; default CUESCOPE_JOB_THREADS). */
export function taskThreads(size?: number, heapMb?: number): TaskThreads<Tasks> {
  return new TaskThreads(TASKS, size, heapMb);
}
