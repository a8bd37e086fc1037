"use client";

import { useQuery } from "@tanstack/react-query";
import { commentedTurnsQuery } from "@/lib/queries/comments";
import { noteMarks } from "@/lib/run-view/notes-lane";
import { turnFraction } from "@/lib/run-view/turn-window";
import type { AxisProps } from "./meter-panels";
import { MarkTrack } from "./mark-track";
import { PLOT_INSETS } from "./plot-insets";
import laneStyles from "./lanes.module.css";
import styles from "./notes.module.css";

/**
 * The notes lane, on the charts' turn axis: a mark at each turn with comments (neighbours folded at
 * wide zoom); a click (or the lane's slider and Enter, MarkTrack) selects the turn, whose comments
 * the inspector shows.
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
        <MarkTrack
          className={laneStyles.track}
          label="Notes: turns with comments"
          items={marks.map((mark) => ({
            key: `${mark.turn}-${mark.toTurn}`,
            turn: mark.turn,
            title: mark.title,
            activate: () => onSelectTurn(mark.turn),
          }))}
          selectedTurn={selectedTurn}
        >
          {(activeKey) => (
            <>
              {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
                <span className={laneStyles.selected} style={{ left: `${turnFraction(selectedTurn, domain) * 100}%` }} aria-hidden="true" />
              ) : null}
              {marks.map((mark) => (
                <span
                  key={`${mark.turn}-${mark.toTurn}`}
                  className={styles.mark}
                  style={{ left: `${mark.x * 100}%` }}
                  title={mark.title}
                  data-mark={`${mark.turn}-${mark.toTurn}`}
                  data-turn={mark.turn}
                  data-selected={selectedTurn === mark.turn || undefined}
                  data-active={`${mark.turn}-${mark.toTurn}` === activeKey || undefined}
                >
                  <span aria-hidden="true">✎</span>
                </span>
              ))}
              {query.data && total === 0 ? <span className={styles.none}>{hint}</span> : null}
            </>
          )}
        </MarkTrack>
      </div>
    </section>
  );
}
