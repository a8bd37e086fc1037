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
