import {
  CONTEXT_PARTS,
  contextPartsTotal,
  type TCompaction,
  type TContextPart,
  type TContextParts,
  type TContextPartsPoint,
} from "@/lib/contracts";
import { formatBytes, formatTurn, formatTurnRange } from "@/lib/format";

/** A slice of the stack: a part the request was measured with, or what the parts leave unattributed. */
export type TPartSlice = TContextPart | "unattributed";
export const PART_SLICES: readonly TPartSlice[] = [...CONTEXT_PARTS, "unattributed"];

/** Each slice in words (contract §11's table); `reminders` are earlier turns' reminders still in the request. */
export const PART_LABELS: Record<TPartSlice, string> = {
  system: "system",
  tools: "tools",
  history: "history",
  retrieved: "retrieved",
  reminders: "earlier reminders",
  other: "other",
  unattributed: "unattributed",
};

export interface PartShare {
  slice: TPartSlice;
  bytes: number;
  /** bytes / requiredBytes; null when requiredBytes is 0. */
  share: number | null;
}

/**
 * One request by part (contract §11): the parts that were sent in contract order, then the
 * unattributed rest (requiredBytes minus their sum) when there is one. Shares are of requiredBytes.
 */
export function partsBreakdown(requiredBytes: number, parts: TContextParts): PartShare[] {
  const share = (bytes: number) => (requiredBytes > 0 ? bytes / requiredBytes : null);
  const out: PartShare[] = [];
  for (const part of CONTEXT_PARTS) {
    const bytes = parts[part];
    if (bytes !== undefined) out.push({ slice: part, bytes, share: share(bytes) });
  }
  const rest = requiredBytes - contextPartsTotal(parts);
  if (rest > 0) out.push({ slice: "unattributed", bytes: rest, share: share(rest) });
  return out;
}

/** A row of the stacked chart: every slice of `slices` in bytes (0 where a part was not sent), and the total. */
export type StackRow = { turn: number; total: number } & Partial<Record<TPartSlice, number>>;

/** The slices a chart stacks: the parts the window has, then unattributed when some turn has a rest. */
export function stackSlices(parts: readonly TContextPart[], points: readonly TContextPartsPoint[]): TPartSlice[] {
  const slices: TPartSlice[] = [...parts];
  if (points.some((point) => unattributedOf(point) > 0)) slices.push("unattributed");
  return slices;
}

/** The stacked chart's rows: per point, each slice's bytes, so that the stack sums to requiredBytes. */
export function stackRows(points: readonly TContextPartsPoint[], slices: readonly TPartSlice[]): StackRow[] {
  return points.map((point) => {
    const row: StackRow = { turn: point.turn, total: point.value };
    for (const slice of slices) row[slice] = slice === "unattributed" ? unattributedOf(point) : (point[slice] ?? 0);
    return row;
  });
}

function unattributedOf(point: TContextPartsPoint): number {
  return Math.max(0, point.value - contextPartsTotal(point));
}

/** A compaction drawn on the parts chart: its sizes before and after, and the request that was then measured. */
export type CompactionMark = TCompaction & {
  /** The turn's requiredBytes (the request measured after it, R9); null when that turn's point is not drawn or has no parts. */
  afterBytes: number | null;
};

/** The compactions with the bytes the turn's request then measured (a folded item, spanning turns, has none). */
export function compactionMarks(compactions: readonly TCompaction[], points: readonly TContextPartsPoint[]): CompactionMark[] {
  const byTurn = new Map(points.map((point) => [point.turn, point.value]));
  return compactions.map((c) => ({ ...c, afterBytes: c.count === undefined ? (byTurn.get(c.turn) ?? null) : null }));
}

/** A compaction in words: "turn 11: compaction adopted: 12,000 B before, candidate 8,000 B, 8,000 B after". */
export function describeCompaction(mark: CompactionMark): string {
  const outcome = mark.outcome === "adopted" ? "adopted" : "rolled back";
  if (mark.count !== undefined) {
    return `${formatTurnRange(mark.turn, mark.toTurn ?? mark.turn)}: ${mark.count} compactions ${outcome}, candidates down to ${formatBytes(mark.candidateBytes)} from up to ${formatBytes(mark.originalBytes)}`;
  }
  const after = mark.afterBytes === null ? "" : `, ${formatBytes(mark.afterBytes)} after`;
  return `${formatTurn(mark.turn)}: compaction ${outcome}: ${formatBytes(mark.originalBytes)} before, candidate ${formatBytes(mark.candidateBytes)}${after}`;
}

/**
 * The parts chart's sentence for readers who do not see it: the window's turns with parts, and
 * the last drawn turn's size and its largest slice.
 */
export function partsSummary(points: readonly TContextPartsPoint[], slices: readonly TPartSlice[], turnsWithout: number): string {
  if (points.length === 0) return "No turn in view reported what filled its request.";
  const last = points[points.length - 1];
  const lastRow = stackRows([last], slices)[0];
  const largest = [...slices].sort((a, b) => (lastRow[b] ?? 0) - (lastRow[a] ?? 0))[0];
  const without = turnsWithout > 0 ? ` ${turnsWithout} rebuilt turns in view reported no parts.` : "";
  return (
    `The final request by part, in bytes, stacked to its required bytes. At ${formatTurn(last.turn)} it measured ${formatBytes(last.value)}, ` +
    `the largest part ${PART_LABELS[largest]} (${formatBytes(lastRow[largest] ?? 0)}).${without}`
  );
}
