import { createHash } from "node:crypto";
import { REMINDER_KEYS, type TCopy, type TPolicy, type TReplayResult, type TRunDecisions } from "@/lib/contracts";
import { followUp, rebuild } from "@/lib/core";
import { changedTurns, turnsToList } from "@/lib/replay/changed-turns";
import { followUpGroups, type RunFollowUp, type SavedCopy } from "@/lib/replay/follow-up-groups";
import { addKeyStats, emptyKeyStats } from "@/lib/replay/key-stats";
import type { Database } from "@/lib/server/db";
import { copyColumn } from "@/lib/server/db/json-columns";
import { getRunDecisions } from "@/lib/server/runs/run-decisions";
import { loadRunEvents } from "@/lib/server/runs/run-events";
import type { RunRow } from "@/lib/server/runs/find-run";

const CHANGED_TURNS_LISTED = 200;

export interface ReplayProgress {
  doneRuns: number;
  doneTurns: number;
}

/**
 * Rebuilds each run with the what-if copy/policy and compares it with its own decisions: per-key
 * stats for both, the turns that changed, and the §8 follow-up association of the recorded runs
 * per copy they were rendered with (named after the project's saved copy versions).
 * `onRun` reports progress after every run and may answer false to stop (cancellation).
 */
export async function replayRuns(
  db: Database,
  projectId: string,
  runs: readonly RunRow[],
  overrides: { copy?: TCopy; policy?: TPolicy },
  onRun: (progress: ReplayProgress) => Promise<boolean>,
): Promise<TReplayResult | null> {
  let baseline = REMINDER_KEYS.map(emptyKeyStats);
  let whatIf = REMINDER_KEYS.map(emptyKeyStats);
  const follow: RunFollowUp[] = [];
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
      if (changed.length) {
        const fateChangedTurns = changed.filter((c) => c.fate).length;
        changedRuns.push({
          runId: run.runId,
          changedTurns: changed.length,
          fateChangedTurns,
          turns: turnsToList(changed, CHANGED_TURNS_LISTED),
        });
      }
      const started = events.find((e) => e.type === "run.started");
      follow.push({ copy: started?.type === "run.started" ? started.body.copy : undefined, byKey: followUp(before, events).byKey });
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
    followUp: followUpGroups(follow, await savedCopies(db, projectId), copyFingerprint),
  };
}

/** A resolved copy's short id: the first 10 hex digits of the sha256 of its canonical JSON. */
export function copyFingerprint(resolvedJson: string): string {
  return createHash("sha256").update(resolvedJson).digest("hex").slice(0, 10);
}

async function savedCopies(db: Database, projectId: string): Promise<SavedCopy[]> {
  const rows = await db.prisma.copyVersion.findMany({
    where: { projectId },
    select: { id: true, name: true, createdAt: true, copy: true },
  });
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), copy: copyColumn(row) }));
}
