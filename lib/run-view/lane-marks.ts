import type { TTimelineNotification } from "@/lib/contracts";
import { formatNumber, formatTurn, formatTurnRange } from "@/lib/format";
import { turnFraction, type TurnWindow } from "./turn-window";

export type LaneGlyph = "candidate" | "granted" | "denied" | "dispatch" | "done" | "cancelled" | "notification";

/** One mark of a lane at a turn, positioned as a fraction of the plot width. */
export interface LaneMark {
  id: string;
  turn: number;
  x: number;
  row: number;
  glyph: LaneGlyph;
  title: string;
}

/** User notifications of the window as marks on their own lane (never merged with reminders, R12). */
export function notificationMarks(items: readonly TTimelineNotification[], domain: TurnWindow): LaneMark[] {
  return items
    .filter((n) => (n.toTurn ?? n.turn) >= domain.from && n.turn <= domain.to)
    .map((n, i) => ({
      id: `n${i}`,
      turn: n.turn,
      x: turnFraction(Math.max(n.turn, domain.from), domain),
      row: 0,
      glyph: "notification" as const,
      title:
        n.count === undefined
          ? `${formatTurn(n.turn)} · user notified via ${n.channel}: ${n.message}`
          : `${formatTurnRange(n.turn, n.toTurn ?? n.turn)} · ${formatNumber(n.count)} user notifications via ${n.channel}; the first: ${n.message} · zoom in for each`,
    }));
}

/** A bucket of a dense lane: how many items fall on turns `from`–`to`, and where it is drawn. */
export interface LaneBucket {
  from: number;
  to: number;
  count: number;
  /** Left and right edges as fractions of the plot width. */
  x1: number;
  x2: number;
}

/** Above this many items in the window, a lane draws counts per bucket instead of each item. */
export const DENSE_LANE_ITEMS = 120;

/**
 * A dense lane at run scale (docs/architecture.md#run-triage): its items counted per bucket of
 * turns, `buckets` equal spans over the window (at least one turn each), empty buckets left out.
 * `weight` is how many items one entry stands for (a folded item's count). Each bucket is drawn as
 * a bar whose height says its count; zooming in shows the items again.
 */
export function laneBuckets(items: readonly { turn: number; weight?: number }[], domain: TurnWindow, buckets = 60): LaneBucket[] {
  const span = Math.max(1, domain.to - domain.from + 1);
  const n = Math.max(1, Math.min(buckets, span));
  const width = span / n;
  const counts = new Array<number>(n).fill(0);
  for (const item of items) {
    if (item.turn < domain.from || item.turn > domain.to) continue;
    counts[Math.min(n - 1, Math.floor((item.turn - domain.from) / width))] += item.weight ?? 1;
  }
  const out: LaneBucket[] = [];
  counts.forEach((count, i) => {
    if (!count) return;
    const from = domain.from + Math.ceil(i * width);
    const to = Math.min(domain.to, domain.from + Math.ceil((i + 1) * width) - 1);
    out.push({ from, to, count, x1: turnFraction(from, domain), x2: turnFraction(Math.min(domain.to, to + 1), domain) });
  });
  return out;
}
