import type { TRunDecisions } from "@/lib/contracts";
import { rebuildTask, type RebuildTaskInput, type RebuildTaskOutput } from "./rebuild-task";
import { replayRunTask, whatIfRunTask, type ReplayRunInput, type ReplayRunOutput, type WhatIfRunInput } from "./replay-task";

/**
 * The CPU-heavy work jobs hand to threads, by name: each a pure function of structured-cloneable
 * input to structured-cloneable output (no database, no shared state), so it gives the same answer
 * on a thread or inline.
 */
export interface Tasks {
  rebuild: { input: RebuildTaskInput; output: RebuildTaskOutput | { ok: "full rebuild needed" } };
  replayRun: { input: ReplayRunInput; output: ReplayRunOutput };
  whatIfRun: { input: WhatIfRunInput; output: TRunDecisions };
}

export type TaskName = keyof Tasks;
export type TaskRequest = { [N in TaskName]: { name: N; input: Tasks[N]["input"] } }[TaskName];

const TASKS: { [N in TaskName]: (input: Tasks[N]["input"]) => Tasks[N]["output"] } = {
  rebuild: rebuildTask,
  replayRun: replayRunTask,
  whatIfRun: whatIfRunTask,
};

export function runTask<N extends TaskName>(request: { name: N; input: Tasks[N]["input"] }): Tasks[N]["output"] {
  return TASKS[request.name](request.input);
}
