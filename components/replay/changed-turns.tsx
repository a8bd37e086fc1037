import Link from "next/link";
import type { TReplayResult } from "../../lib/contracts";
import { formatNumber } from "../../lib/format";
import styles from "./replay.module.css";

/** The side-by-side view of one changed turn. */
export function replayTurnHref(jobId: string, runId: string, turn: number): string {
  return `/copy/replay/${encodeURIComponent(jobId)}/runs/${encodeURIComponent(runId)}/turns/${turn}`;
}

/** Runs whose decisions changed and their changed turns, each opening the baseline vs what-if view. */
export function ChangedTurns({ jobId, runs }: { jobId: string; runs: TReplayResult["changedRuns"] }) {
  if (runs.length === 0) return <p className="muted">No turn&apos;s decisions changed: the what-if gives every run exactly its recorded decisions.</p>;
  return (
    <ul className={styles.changedRuns}>
      {runs.map((run) => (
        <li key={run.runId}>
          <p className={styles.changedRunHead}>
            <Link href={`/runs/${encodeURIComponent(run.runId)}`}>{run.runId}</Link>{" "}
            <span className="muted">
              {formatNumber(run.changedTurns)} changed turn{run.changedTurns === 1 ? "" : "s"}
              {run.turns.length < run.changedTurns ? ` (first ${formatNumber(run.turns.length)} listed)` : ""}
            </span>
          </p>
          <ul className={styles.turnChips} aria-label={`Changed turns of ${run.runId}`}>
            {run.turns.map((t) => (
              <li key={t.turn}>
                <Link href={replayTurnHref(jobId, run.runId, t.turn)} title={t.changes.join("\n")} aria-label={`Turn ${t.turn}: ${t.changes.join("; ")}`}>
                  {t.turn}
                </Link>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
