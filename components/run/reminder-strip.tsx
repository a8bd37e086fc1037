"use client";

import type { TTimelineReminder } from "@/lib/contracts";
import { STATUS_MARKS } from "@/components/ui/status-mark";
import { PLOT_INSETS } from "./plot-insets";
import { stripMarks } from "@/lib/run-view/strip-layout";
import { turnFraction, type TurnWindow } from "@/lib/run-view/turn-window";
import { MarkTrack } from "./mark-track";
import styles from "./strip.module.css";

const ROW_HEIGHT = 11;

export interface ReminderStripProps {
  /** The meter's name in the tooltips ("requests", "context", "edits"). */
  label: string;
  items: readonly TTimelineReminder[];
  /** One row per stage (the meter's number of thresholds). */
  stageRows: number;
  domain: TurnWindow;
  selectedTurn: number | null;
  onSelectTurn: (turn: number) => void;
}

/**
 * A meter's reminders under its chart, on the shared turn axis: a row per stage (highest on top),
 * each reminder a status mark (● delivered, ✕ dropped, ▲ failed, ◆ uncertain, ○ pending) with a
 * tooltip; a reminder repeated over consecutive turns is a bar from its first to its last turn.
 * Dropped marks are drawn larger and on top. The strip is one control (MarkTrack): Tab reaches it
 * once, arrows move between its marks, Enter selects the mark's turn.
 */
export function ReminderStrip({ label, items, stageRows, domain, selectedTurn, onSelectTurn }: ReminderStripProps) {
  const rows = Math.max(1, stageRows);
  const marks = stripMarks(items, domain, rows, label);
  // At least 24 px: the strip is one target (WCAG 2.5.8).
  const height = Math.max(24, rows * ROW_HEIGHT + 4);
  const trackItems = [...marks]
    .sort((a, b) => a.turn - b.turn)
    .map((mark) => ({ key: mark.id, turn: mark.turn, title: mark.title, activate: () => onSelectTurn(mark.turn) }));
  return (
    <div className={styles.strip} style={{ height, paddingLeft: PLOT_INSETS.left, paddingRight: PLOT_INSETS.right }}>
      <div className={styles.gutter} style={{ width: PLOT_INSETS.left }} aria-hidden="true">
        {Array.from({ length: rows }, (_, row) => (
          <span key={row} className={styles.stageLabel} style={{ top: 2 + row * ROW_HEIGHT, height: ROW_HEIGHT }}>
            {row === 0 ? `${label.slice(0, 9)} s${rows - row}` : `s${rows - row}`}
          </span>
        ))}
      </div>
      <MarkTrack className={styles.track} label={`${label} reminders, by stage and status`} items={trackItems} selectedTurn={selectedTurn}>
        {(activeKey) => (
          <>
            {Array.from({ length: rows }, (_, row) => (
              <span key={row} className={styles.rowRule} style={{ top: 2 + row * ROW_HEIGHT + ROW_HEIGHT / 2 }} aria-hidden="true" />
            ))}
            {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
              <span className={styles.selected} style={{ left: `${turnFraction(selectedTurn, domain) * 100}%` }} aria-hidden="true" />
            ) : null}
            {marks.map((mark) => (
              <span
                key={mark.id}
                className={`${styles.mark} ${styles[mark.status]}`}
                style={{
                  left: `${mark.left * 100}%`,
                  width: mark.right > mark.left ? `calc(${(mark.right - mark.left) * 100}% + 10px)` : undefined,
                  top: 2 + mark.row * ROW_HEIGHT,
                  height: ROW_HEIGHT,
                }}
                title={mark.title}
                data-mark={mark.id}
                data-turn={mark.turn}
                data-active={mark.id === activeKey || undefined}
              >
                {mark.right > mark.left ? <span className={styles.run} aria-hidden="true" /> : null}
                <span className={styles.glyph} aria-hidden="true">
                  {STATUS_MARKS[mark.status]}
                </span>
              </span>
            ))}
          </>
        )}
      </MarkTrack>
    </div>
  );
}
