"use client";

import { useQuery } from "@tanstack/react-query";
import { commentedTurnsQuery } from "@/lib/queries/comments";
import { noteMarks } from "@/lib/run-view/notes-lane";
import { turnFraction } from "@/lib/run-view/turn-window";
import type { AxisProps } from "./meter-panels";
import { PLOT_INSETS } from "./plot-insets";
import styles from "./notes.module.css";

/**
 * The notes lane, on the charts' turn axis: a mark at each turn with comments (neighbours folded at
 * wide zoom); a click selects the turn, whose comments the inspector shows.
 */
export function NotesLane({ runId, axis }: { runId: string; axis: Pick<AxisProps, "domain" | "selectedTurn" | "onSelectTurn"> }) {
  const query = useQuery(commentedTurnsQuery(runId));
  const { domain, selectedTurn, onSelectTurn } = axis;
  const marks = query.data ? noteMarks(query.data.turns, domain) : [];
  const total = query.data?.turns.length ?? 0;
  const hint = query.isError
    ? "could not load the commented turns"
    : query.data
      ? total === 0
        ? "no turn has comments yet"
        : `${total} ${total === 1 ? "turn has" : "turns have"} comments${query.data.truncated ? " (first ones shown)" : ""}`
      : "loading";

  return (
    <section className={styles.card} aria-label={`Notes lane: ${hint}`}>
      <div className={styles.lane} style={{ paddingLeft: PLOT_INSETS.left, paddingRight: PLOT_INSETS.right }}>
        <span className={styles.label} style={{ width: PLOT_INSETS.left }} title="Turns with comments; click one to select it">
          Notes
        </span>
        <div className={styles.track}>
          {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
            <span className={styles.selected} style={{ left: `${turnFraction(selectedTurn, domain) * 100}%` }} aria-hidden="true" />
          ) : null}
          {marks.map((mark) => (
            <button
              key={`${mark.turn}-${mark.toTurn}`}
              type="button"
              className={styles.mark}
              style={{ left: `${mark.x * 100}%` }}
              title={mark.title}
              aria-label={mark.title}
              aria-pressed={selectedTurn === mark.turn}
              onClick={() => onSelectTurn(mark.turn)}
            >
              <span aria-hidden="true">✎</span>
            </button>
          ))}
          {query.data && total === 0 ? <span className={styles.none}>{hint}</span> : null}
        </div>
      </div>
    </section>
  );
}
