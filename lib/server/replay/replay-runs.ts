import { REMINDER_KEYS, type TCopy, type TPolicy, type TReplayResult, type TRunDecisions } from "../../contracts";
import { followUp, rebuild } from "../../core";
import { changedTurns } from "../../replay/changed-turns";
import { addKeyStats, emptyKeyStats } from "../../replay/key-stats";
import { wilsonInterval } from "../../replay/wilson";
import type { Database } from "../db";
import { getRunDecisions } from "../runs/run-decisions";
import { loadRunEvents } from "../runs/run-events";
import type { RunRow } from "../runs/find-run";

const CHANGED_TURNS_LISTED = 200;

export interface ReplayProgress {
  doneRuns: number;
  doneTurns: number;
}

/**
 * Rebuilds each run with the what-if copy/policy and compares it with its own decisions: per-key
 * stats for both, the turns that changed, and the §8 follow-up association of the recorded runs.
 * `onRun` reports progress after every run and may answer false to stop (cancellation).
 */
export async function replayRuns(
  db: Database,
  runs: readonly RunRow[],
  overrides: { copy?: TCopy; policy?: TPolicy },
  onRun: (progress: ReplayProgress) => Promise<boolean>,
): Promise<TReplayResult | null> {
  let baseline = REMINDER_KEYS.map(emptyKeyStats);
  let whatIf = REMINDER_KEYS.map(emptyKeyStats);
  const follow = new Map(REMINDER_KEYS.map((key) => [key, { delivered: 0, followed: 0 }]));
  const changedRuns: TReplayResult["changedRuns"] = [];
  const progress: ReplayProgress = { doneRuns: 0, doneTurns: 0 };

  for (const run of runs) {
    const own = await getRunDecisions(db, run);
    if (own.ok) {
      const events = await loadRunEvents(db, run);
      const before = JSON.parse(own.json) as TRunDecisions;
      const after = rebuild(events, overrides);
      baseline = addKeyStats(baseline, before);
      whatIf = addKeyStats(whatIf, after);
      const changed = changedTurns(before, after);
      if (changed.length) changedRuns.push({ runId: run.runId, changedTurns: changed.length, turns: changed.slice(0, CHANGED_TURNS_LISTED) });
      for (const stat of followUp(before, events).byKey) {
        const total = follow.get(stat.key)!;
        total.delivered += stat.delivered;
        total.followed += stat.followed;
      }
    }
    progress.doneRuns++;
    progress.doneTurns += run.maxTurn === null ? 0 : run.maxTurn + 1;
    if (!(await onRun(progress))) return null;
  }

  return {
    runs: runs.length,
    turns: progress.doneTurns,
    keys: REMINDER_KEYS.map((key, i) => ({ key, baseline: baseline[i], whatIf: whatIf[i] })),
    changedRuns,
    followUp: REMINDER_KEYS.map((key) => {
      const { delivered, followed } = follow.get(key)!;
      const interval = wilsonInterval(followed, delivered);
      return { key, delivered, followed, rate: delivered ? followed / delivered : null, low: interval?.low ?? null, high: interval?.high ?? null };
    }),
  };
}
