"use client";

import Link from "next/link";
import { useState } from "react";
import type { TReplayResult } from "@/lib/contracts";
import { compareUrl } from "@/lib/compare-view/compare-url";
import { formatCount, formatNumber } from "@/lib/format";
import { chipOf } from "@/lib/replay/changed-turns";
import { JumpKeys, jumpTarget } from "@/components/ui/jump-keys";
import styles from "./replay.module.css";
import { replayTurnPath, runPath } from "@/lib/queries/paths";

/** The side-by-side view of one changed turn. */
export function replayTurnHref(jobId: string, runId: string, turn: number): string {
  return replayTurnPath(jobId, runId, turn);
}

/**
 * Runs whose decisions changed and their changed turns, each opening the baseline vs what-if view;
 * each run also opens the comparison view of the recorded run against its what-if (docs/compare.md).
 * By default only turns where a reminder's fate changed (delivered, dropped, appeared, another
 * stage) are listed; text-only changes are one switch away.
 */
export function ChangedTurns({ jobId, runs }: { jobId: string; runs: TReplayResult["changedRuns"] }) {
  const anyFate = runs.some((r) => r.fateChangedTurns > 0);
  const [fateOnly, setFateOnly] = useState(anyFate);
  if (runs.length === 0)
    return <p className="muted">No turn&apos;s decisions changed: the what-if gives every run exactly its recorded decisions.</p>;
  const shown = runs.filter((r) => !fateOnly || r.fateChangedTurns > 0);

  return (
    <>
      <label className={styles.toggle}>
        <input type="checkbox" checked={fateOnly} onChange={(e) => setFateOnly(e.target.checked)} />
        Only turns where a reminder was delivered, dropped or staged differently (not only reworded)
      </label>
      <JumpKeys kind="changed-turn" noun="changed turn" />
      {shown.length === 0 ? (
        <p className="muted">Every changed turn only has new wording: no reminder was delivered or dropped differently.</p>
      ) : null}
      <ul className={styles.changedRuns}>
        {shown.map((run) => {
          const turns = fateOnly ? run.turns.filter((t) => t.fate) : run.turns;
          const total = fateOnly ? run.fateChangedTurns : run.changedTurns;
          return (
            <li key={run.runId}>
              <p className={styles.changedRunHead}>
                <Link href={runPath(run.runId)}>{run.runId}</Link>{" "}
                <span className="muted">
                  {formatCount(run.changedTurns, "changed turn")}, {formatNumber(run.fateChangedTurns)} with a different outcome
                  {turns.length < total ? ` (first ${formatNumber(turns.length)} listed)` : ""}
                </span>{" "}
                ·{" "}
                <Link href={compareUrl({ a: run.runId, replay: jobId })}>
                  Compare with the recorded run<span className="sr-only"> ({run.runId})</span>
                </Link>
              </p>
              <ul className={styles.turnChips} aria-label={`Changed turns of ${run.runId}`}>
                {turns.map((t) => {
                  const chip = chipOf(t);
                  return (
                    <li key={t.turn} {...jumpTarget("changed-turn", `${run.runId}, ${chip.spoken}`)}>
                      <Link
                        href={replayTurnHref(jobId, run.runId, t.turn)}
                        className={t.fate ? styles.fateChip : undefined}
                        title={t.changes.join("\n")}
                      >
                        {/* The name is the spoken sentence; the short chip is what is seen. No
                            aria-label, so the name is the content itself (WCAG 2.5.3). */}
                        <span aria-hidden="true">{chip.text}</span>
                        <span className="sr-only">{chip.spoken}</span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </li>
          );
        })}
      </ul>
    </>
  );
}
