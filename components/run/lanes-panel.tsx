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
import { MarkTrack, type TrackItem } from "./mark-track";
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

function Lane({
  label,
  hint,
  rows,
  axis,
  items,
  children,
}: {
  label: string;
  hint: string;
  rows: number;
  axis: AxisProps;
  /** The lane's marks in turn order: what a click or Enter on each does. */
  items: readonly TrackItem[];
  children: (activeKey: string | null) => ReactNode;
}) {
  const { selectedTurn, domain } = axis;
  return (
    <div
      className={styles.lane}
      // At least 24 px: the lane is one target (WCAG 2.5.8).
      style={{ height: Math.max(24, rows * ROW + 6), paddingLeft: PLOT_INSETS.left, paddingRight: PLOT_INSETS.right }}
    >
      <span className={styles.laneLabel} style={{ width: PLOT_INSETS.left }} title={hint} aria-hidden="true">
        {label}
      </span>
      <MarkTrack className={styles.track} label={`${label}: ${hint}`} items={items} selectedTurn={selectedTurn}>
        {(activeKey) => (
          <>
            {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
              <span className={styles.selected} style={{ left: `${turnFraction(selectedTurn, domain) * 100}%` }} aria-hidden="true" />
            ) : null}
            {children(activeKey)}
          </>
        )}
      </MarkTrack>
    </div>
  );
}

/** Lane marks (and spans) as track items that select their turn, in turn order. */
function selectItems(marks: readonly { id: string; turn: number; title: string }[], onSelectTurn: (turn: number) => void): TrackItem[] {
  return [...marks]
    .sort((a, b) => a.turn - b.turn)
    .map((m) => ({ key: m.id, turn: m.turn, title: m.title, activate: () => onSelectTurn(m.turn) }));
}

function Marks({ marks, activeKey, glyph }: { marks: readonly LaneMark[]; activeKey: string | null; glyph?: string }) {
  return marks.map((m) => (
    <span
      key={m.id}
      className={`${styles.mark} ${glyph ? styles.finding : styles[m.glyph]}`}
      style={{ left: `${m.x * 100}%`, top: 3 + m.row * ROW }}
      title={m.title}
      data-turn={m.turn}
      data-mark={m.id}
      data-active={m.id === activeKey || undefined}
    >
      {glyph ?? LANE_GLYPHS[m.glyph]}
    </span>
  ));
}

/**
 * A dense lane at run scale: a bar per bucket of turns, as tall as its count (the busiest bucket
 * fills the lane); a click (or Enter) zooms to the bucket's turns, where the items are drawn one by one.
 */
function bucketsOf(items: readonly { turn: number; weight?: number }[], what: string, axis: AxisProps) {
  const buckets = laneBuckets(items, axis.domain);
  const most = Math.max(1, ...buckets.map((b) => b.count));
  return buckets.map((b) => ({
    ...b,
    key: `b${b.from}`,
    share: b.count / most,
    title: `${formatTurnRange(b.from, b.to)} · ${formatNumber(b.count)} ${what} · zoom in to see each`,
  }));
}
type Bucket = ReturnType<typeof bucketsOf>[number];

function bucketItems(buckets: readonly Bucket[], axis: AxisProps): TrackItem[] {
  return buckets.map((b) => ({ key: b.key, turn: b.from, title: b.title, activate: () => axis.onZoom(b.from, b.to) }));
}

function BucketBars({ buckets, rows, activeKey }: { buckets: readonly Bucket[]; rows: number; activeKey: string | null }) {
  const height = rows * ROW;
  return buckets.map((b) => {
    const h = Math.max(3, Math.round(b.share * height));
    return (
      <span
        key={b.key}
        className={styles.bucket}
        style={{ left: `${b.x1 * 100}%`, width: `max(3px, ${(b.x2 - b.x1) * 100}% - 1px)`, top: 3 + height - h, height: h }}
        title={b.title}
        data-turn={b.from}
        data-mark={b.key}
        data-active={b.key === activeKey || undefined}
        data-testid="lane-bucket"
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
  const recordedBuckets = recordedDense ? bucketsOf(recordedItems, "recorded Reviewer items", axis) : [];
  const notifiedBuckets = notifiedDense ? bucketsOf(notifiedItems, "user notifications", axis) : [];
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
          items={selectItems(layout.rebuilt, onSelectTurn)}
        >
          {(activeKey) => <Marks marks={layout.rebuilt} activeKey={activeKey} />}
        </Lane>
        <Lane
          label="recorded"
          hint="what the agent and runtime recorded: ◇ candidate, ✓/⊘ admission, ▶ dispatch ━ running ■ completed, ⊗ cancelled"
          rows={recordedDense ? 1 : layout.recorded.rows}
          axis={axis}
          items={
            recordedDense
              ? bucketItems(recordedBuckets, axis)
              : selectItems([...layout.recorded.spans, ...layout.recorded.marks], onSelectTurn)
          }
        >
          {(activeKey) =>
            recordedDense ? (
              <BucketBars buckets={recordedBuckets} rows={1} activeKey={activeKey} />
            ) : (
              <>
                {layout.recorded.spans.map((s) => (
                  <span
                    key={s.id}
                    className={`${styles.span} ${s.open ? styles.open : ""}`}
                    style={{ left: `${s.x1 * 100}%`, width: `${Math.max(0, s.x2 - s.x1) * 100}%`, top: 3 + s.row * ROW + 5 }}
                    title={s.title}
                    data-turn={s.turn}
                    data-mark={s.id}
                    data-active={s.id === activeKey || undefined}
                  />
                ))}
                <Marks marks={layout.recorded.marks} activeKey={activeKey} />
              </>
            )
          }
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
        <Lane
          label="notified"
          hint="user.notified events: ✉ (channel and message in the tooltip)"
          rows={1}
          axis={axis}
          items={notifiedDense ? bucketItems(notifiedBuckets, axis) : selectItems(notifications, onSelectTurn)}
        >
          {(activeKey) =>
            notifiedDense ? (
              <BucketBars buckets={notifiedBuckets} rows={1} activeKey={activeKey} />
            ) : (
              <Marks marks={notifications} activeKey={activeKey} />
            )
          }
        </Lane>
      </div>

      <div className={styles.group}>
        <h3 className={styles.groupTitle}>
          Findings <span className={styles.kind}>audit, by turn</span>
          <span className={styles.groupMeta}>{formatCount(findings.length, "turn")} in view</span>
        </h3>
        <Lane
          label="findings"
          hint="turns with audit findings: ⚑ (codes in the tooltip)"
          rows={1}
          axis={axis}
          items={selectItems(findings, onSelectTurn)}
        >
          {(activeKey) => <Marks marks={findings} activeKey={activeKey} glyph="⚑" />}
        </Lane>
      </div>
    </section>
  );
}
