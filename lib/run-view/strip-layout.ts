import type { TDeliveryStatus, TTimelineReminder } from "@/lib/contracts";
import { formatBytes, formatNumber, formatTurnRange } from "@/lib/format";
import { turnFraction, type TurnWindow } from "./turn-window";

/** Drawing order of statuses: delivered underneath, the ones a reader must not miss on top. */
const STATUS_DEPTH: Record<TDeliveryStatus, number> = { delivered: 0, pending: 1, uncertain: 2, failed: 3, dropped: 4 };

export interface StripMark {
  id: string;
  turn: number;
  /** Last turn of a folded run of identical reminders (equal to `turn` for one turn). */
  toTurn: number;
  /** Position of `turn` / `toTurn` as fractions of the plot width (clamped to 0…1). */
  left: number;
  right: number;
  /** Row from the top: 0 is the highest stage row. */
  row: number;
  stage: number;
  status: TDeliveryStatus;
  /** Plain sentence for the tooltip and the accessible name. */
  title: string;
}

/**
 * One meter's reminders as marks on a strip under its chart: one row per stage (highest on top,
 * `stageRows` rows; a stage above them lands on the top row), x by turn on the shared axis,
 * marks outside the window left out, delivered marks drawn first so dropped/failed/uncertain/
 * pending ones stay visible on top.
 */
export function stripMarks(items: readonly TTimelineReminder[], domain: TurnWindow, stageRows: number, label: string): StripMark[] {
  const rows = Math.max(1, stageRows);
  const marks: StripMark[] = [];
  items.forEach((item, index) => {
    const toTurn = item.toTurn ?? item.turn;
    if (toTurn < domain.from || item.turn > domain.to) return;
    const clamp = (x: number) => Math.min(1, Math.max(0, x));
    marks.push({
      id: `${index}`,
      turn: item.turn,
      toTurn,
      left: clamp(turnFraction(item.turn, domain)),
      right: clamp(turnFraction(toTurn, domain)),
      row: rows - Math.min(rows, Math.max(1, item.stage)),
      stage: item.stage,
      status: item.status,
      title: reminderTitle(label, item),
    });
  });
  return marks.sort((a, b) => STATUS_DEPTH[a.status] - STATUS_DEPTH[b.status] || a.turn - b.turn);
}

/** "turn 120 · context reminder, stage 2 · dropped: needs 104 B, 15 B free". */
export function reminderTitle(label: string, item: TTimelineReminder): string {
  const turns = formatTurnRange(item.turn, item.toTurn ?? item.turn);
  if (item.count !== undefined) return foldedTitle(label, turns, item);
  const what = `${label} reminder${item.subject ? ` (${item.subject})` : ""}, stage ${item.stage}`;
  const every = item.toTurn !== undefined && item.toTurn > item.turn ? " on each rebuilt turn" : "";
  let status: string = item.status;
  if (item.status === "dropped") {
    status = `dropped: needs ${formatBytes(item.bytes)}, ${item.freeBytes === undefined ? "free bytes unknown" : `${formatBytes(item.freeBytes)} free`}`;
  } else {
    status = `${item.status}${every} (${formatBytes(item.bytes)})`;
  }
  return `${turns} · ${what} · ${status}`;
}

/** "turns 1,000–1,099 · 37 context reminders, stage 2 · dropped: need up to 104 B, as little as 15 B free · zoom in for each". */
function foldedTitle(label: string, turns: string, item: TTimelineReminder): string {
  const count = item.count ?? 1;
  const what = `${formatNumber(count)} ${label} reminder${count === 1 ? "" : "s"}${item.subject ? ` (${item.subject})` : ""}${
    label === "review" ? `, from checkpoint ${item.stage}` : `, stage ${item.stage}`
  }`;
  const status =
    item.status === "dropped"
      ? `dropped: need up to ${formatBytes(item.bytes)}, ${item.freeBytes === undefined ? "free bytes unknown" : `as little as ${formatBytes(item.freeBytes)} free`}`
      : `${item.status} (up to ${formatBytes(item.bytes)})`;
  return `${turns} · ${what} · ${status} · zoom in for each`;
}

/** How many stage rows a strip needs: the meter's number of thresholds, at least 1. */
export function stageRowCount(thresholds: readonly unknown[] | undefined): number {
  return Math.max(1, thresholds?.length ?? 1);
}
