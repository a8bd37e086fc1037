"use client";

import type { ReactNode } from "react";
import type { TRunTimeline } from "@/lib/contracts";
import { findingInfo } from "@/lib/audit/finding-info";
import { formatCount, formatNumber, formatTurnRange } from "@/lib/format";
import { PLOT_INSETS } from "./plot-insets";
import { ReminderStrip } from "./reminder-strip";
import { reviewerLayout } from "@/lib/reviewer/lane-layout";
import { DENSE_LANE_ITEMS, laneBuckets, notificationMarks, type LaneGlyph, type LaneMark } from "@/lib/run-view/lane-marks";
import { turnFraction } from "@/lib/run-view/turn-window";
import type { AxisProps } from "./meter-panels";
import { useRovingTrack } from "./use-roving-track";
import styles from "./lanes.module.css";

const ROW = 14;

export const LANE_GLYPHS: Record<LaneGlyph, string> = {
  candidate: "◇",
  granted: "✓",
  denied: "⊘",
  dispatch: "▶",
  done: "■",
  cancelled: "⊗",
  notification: "✉",
};

function Lane({ label, hint, rows, axis, children }: { label: string; hint: string; rows: number; axis: AxisProps; children: ReactNode }) {
  const { selectedTurn, domain } = axis;
  const { ref: trackRef, onFocus: onTrackFocus, onKeyDown: onTrackKeyDown } = useRovingTrack(selectedTurn);
  return (
    <div
      className={styles.lane}
      style={{ height: rows * ROW + 6, paddingLeft: PLOT_INSETS.left, paddingRight: PLOT_INSETS.right }}
      role="toolbar"
      aria-label={`${label}: ${hint}`}
      aria-orientation="horizontal"
    >
      <span className={styles.laneLabel} style={{ width: PLOT_INSETS.left }} title={hint}>
        {label}
      </span>
      <div className={styles.track} ref={trackRef} onFocus={onTrackFocus} onKeyDown={onTrackKeyDown}>
        {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
          <span className={styles.selected} style={{ left: `${turnFraction(selectedTurn, domain) * 100}%` }} aria-hidden="true" />
        ) : null}
        {children}
      </div>
    </div>
  );
}

function Marks({ marks, onSelectTurn }: { marks: readonly LaneMark[]; onSelectTurn: (turn: number) => void }) {
  return marks.map((m) => (
    <button
      key={m.id}
      type="button"
      className={`${styles.mark} ${styles[m.glyph]}`}
      style={{ left: `${m.x * 100}%`, top: 3 + m.row * ROW }}
      title={m.title}
      aria-label={m.title}
      data-turn={m.turn}
      data-mark={m.id}
      onClick={() => onSelectTurn(m.turn)}
    >
      {LANE_GLYPHS[m.glyph]}
    </button>
  ));
}

/**
 * A dense lane at run scale: a bar per bucket of turns, as tall as its count (the busiest bucket
 * fills the lane); a click zooms to the bucket's turns, where the items are drawn one by one.
 */
function Buckets({
  items,
  what,
  rows,
  axis,
}: {
  items: readonly { turn: number; weight?: number }[];
  what: string;
  rows: number;
  axis: AxisProps;
}) {
  const buckets = laneBuckets(items, axis.domain);
  const most = Math.max(1, ...buckets.map((b) => b.count));
  const height = rows * ROW;
  return buckets.map((b) => {
    const title = `${formatTurnRange(b.from, b.to)} · ${formatNumber(b.count)} ${what} · zoom in to see each`;
    const h = Math.max(3, Math.round((b.count / most) * height));
    return (
      <button
        key={b.from}
        type="button"
        className={styles.bucket}
        style={{ left: `${b.x1 * 100}%`, width: `max(3px, ${(b.x2 - b.x1) * 100}% - 1px)`, top: 3 + height - h, height: h }}
        title={title}
        aria-label={title}
        data-turn={b.from}
        data-mark={`b${b.from}`}
        data-testid="lane-bucket"
        onClick={() => axis.onZoom(b.from, b.to)}
      />
    );
  });
}

/** How many items a list of lane entries stands for in the window (a folded entry counts its items). */
function itemsInView(
  items: readonly { turn: number; toTurn?: number; count?: number }[],
  axis: AxisProps,
): { turn: number; weight: number }[] {
  return items
    .filter((i) => i.turn <= axis.domain.to && (i.toTurn ?? i.turn) >= axis.domain.from)
    .map((i) => ({ turn: Math.max(i.turn, axis.domain.from), weight: i.count ?? 1 }));
}

/**
 * Below the meters, on the same turn axis, kept apart (R12): the review suggestion (a reminder to
 * the model), the Reviewer lane (what the rules say; what was recorded: candidate → admission →
 * dispatch → completion), user notifications, and the turns with findings.
 */
export function LanesPanel({ timeline, axis }: { timeline: TRunTimeline; axis: AxisProps }) {
  const { domain, onSelectTurn } = axis;
  const layout = reviewerLayout(timeline.reviewer, domain);
  const notifications = notificationMarks(timeline.notifications, domain);
  const findings: LaneMark[] = [];
  // One mark per turn (a folded lane: per span of turns), listing its codes.
  const byTurns = new Map<string, { turn: number; toTurn: number; list: string[] }>();
  for (const f of timeline.findings) {
    const toTurn = f.toTurn ?? f.turn;
    if (toTurn < domain.from || f.turn > domain.to) continue;
    const id = `${f.turn}-${toTurn}`;
    const entry = byTurns.get(id) ?? { turn: f.turn, toTurn, list: [] };
    entry.list.push(`${findingInfo(f.code).title}${f.count > 1 ? ` ×${formatNumber(f.count)}` : ""}`);
    byTurns.set(id, entry);
  }
  for (const [id, { turn, toTurn, list }] of byTurns) {
    findings.push({
      id: `f${id}`,
      turn,
      x: turnFraction(Math.max(turn, domain.from), domain),
      row: 0,
      glyph: "notification",
      title: `${formatTurnRange(turn, toTurn)} · findings: ${list.join(", ")}${toTurn > turn ? " · zoom in for each" : ""}`,
    });
  }
  const { counts } = layout;
  // Lanes that are noise at run scale are counted per bucket until the window is narrow enough.
  const recordedItems = [
    ...layout.recorded.marks.map((m) => ({ turn: m.turn })),
    ...layout.recorded.spans.map((sp) => ({ turn: sp.turn })),
  ];
  const recordedDense = recordedItems.length > DENSE_LANE_ITEMS;
  const notifiedItems = itemsInView(timeline.notifications, axis);
  const notifiedDense = notifiedItems.length > DENSE_LANE_ITEMS;
  const schedule = timeline.reviewer.schedule;
  const admission = timeline.reviewer.admission;

  return (
    <section className={styles.card} aria-labelledby="lanes-title">
      <header className={`panel-header ${styles.header}`}>
        <h2 id="lanes-title">Review, Reviewer and notifications</h2>
        <span className={styles.meta}>separate lanes (R12): a reminder is neither a Reviewer dispatch nor a notification</span>
        {recordedDense || notifiedDense ? (
          <span className={styles.meta} data-testid="lanes-dense">
            Dense lanes show counts per span of turns (bar height): click a bar or zoom in to see each item.
          </span>
        ) : null}
        {timeline.lanesFolded ? (
          <span className={styles.meta} data-testid="lanes-folded">
            Too many marks to show apart: some lanes count them per span of turns. Zoom in to see each.
          </span>
        ) : null}
      </header>

      <div className={styles.group}>
        <h3 className={styles.groupTitle}>
          Review suggestion <span className={styles.kind}>reminder to the model</span>
          <span className={styles.groupMeta}>
            {schedule
              ? `checkpoints every ${[schedule.everyTurns !== null ? `${schedule.everyTurns} turns` : null, schedule.afterMin !== null ? `${schedule.afterMin} min` : null].filter(Boolean).join(" / ")}`
              : "no review section"}
          </span>
        </h3>
        <ReminderStrip
          label="review"
          items={timeline.reminders.review}
          stageRows={1}
          domain={domain}
          selectedTurn={axis.selectedTurn}
          onSelectTurn={onSelectTurn}
        />
      </div>

      <div className={styles.group}>
        <h3 className={styles.groupTitle}>
          Reviewer <span className={styles.kind}>candidate → admission → dispatch → completion</span>
          <span className={styles.groupMeta}>
            {admission
              ? `rules: ${counts.rebuilt} candidates, ${counts.denied} denied · recorded: ${counts.chains} chains, ${counts.dispatches} dispatches${counts.running ? ` (${counts.running} running)` : ""}${counts.cancelled ? `, ${counts.cancelled} cancelled` : ""}`
              : `no reviewer section · recorded: ${counts.chains} chains`}
          </span>
        </h3>
        <Lane
          label="rules"
          hint="the rebuild's Reviewer candidates and R13's admission: ✓ granted, ⊘ denied (reasons in the tooltip)"
          rows={1}
          axis={axis}
        >
          <Marks marks={layout.rebuilt} onSelectTurn={onSelectTurn} />
        </Lane>
        <Lane
          label="recorded"
          hint="what the agent and runtime recorded: ◇ candidate, ✓/⊘ admission, ▶ dispatch ━ running ■ completed, ⊗ cancelled"
          rows={recordedDense ? 1 : layout.recorded.rows}
          axis={axis}
        >
          {recordedDense ? <Buckets items={recordedItems} what="recorded Reviewer items" rows={1} axis={axis} /> : null}
          {recordedDense
            ? null
            : layout.recorded.spans.map((s) => (
                <button
                  key={s.id}
                  type="button"
                  className={`${styles.span} ${s.open ? styles.open : ""}`}
                  style={{ left: `${s.x1 * 100}%`, width: `${Math.max(0, s.x2 - s.x1) * 100}%`, top: 3 + s.row * ROW + 5 }}
                  title={s.title}
                  aria-label={s.title}
                  data-turn={s.turn}
                  data-mark={s.id}
                  onClick={() => onSelectTurn(s.turn)}
                />
              ))}
          {recordedDense ? null : <Marks marks={layout.recorded.marks} onSelectTurn={onSelectTurn} />}
        </Lane>
      </div>

      <div className={styles.group}>
        <h3 className={styles.groupTitle}>
          User notifications <span className={styles.kind}>delivery flow to the user</span>
          <span className={styles.groupMeta}>
            {formatNumber(
              timeline.notifications.reduce(
                (n, item) => (item.turn <= domain.to && (item.toTurn ?? item.turn) >= domain.from ? n + (item.count ?? 1) : n),
                0,
              ),
            )}{" "}
            in view
          </span>
        </h3>
        <Lane label="notified" hint="user.notified events: ✉ (channel and message in the tooltip)" rows={1} axis={axis}>
          {notifiedDense ? (
            <Buckets items={notifiedItems} what="user notifications" rows={1} axis={axis} />
          ) : (
            <Marks marks={notifications} onSelectTurn={onSelectTurn} />
          )}
        </Lane>
      </div>

      <div className={styles.group}>
        <h3 className={styles.groupTitle}>
          Findings <span className={styles.kind}>audit, by turn</span>
          <span className={styles.groupMeta}>{formatCount(findings.length, "turn")} in view</span>
        </h3>
        <Lane label="findings" hint="turns with audit findings: ⚑ (codes in the tooltip)" rows={1} axis={axis}>
          {findings.map((m) => (
            <button
              key={m.id}
              type="button"
              className={`${styles.mark} ${styles.finding}`}
              style={{ left: `${m.x * 100}%`, top: 3 }}
              title={m.title}
              aria-label={m.title}
              data-turn={m.turn}
              data-mark={m.id}
              onClick={() => onSelectTurn(m.turn)}
            >
              ⚑
            </button>
          ))}
        </Lane>
      </div>
    </section>
  );
}
