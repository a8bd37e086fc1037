import type { TMeterPoint, TMeterUnit, TRunTimeline, TThreshold } from "@/lib/contracts";

/** How the two runs share the x axis: by turn number, or by share of each run (0–100% of its turns). */
export const ALIGNMENTS = ["turn", "share"] as const;
export type Alignment = (typeof ALIGNMENTS)[number];

export function alignmentOf(value: string | null | undefined): Alignment {
  return value === "share" ? "share" : "turn";
}

/** One x position of an overlay: run A's value and run B's, each where that run has a point (meter's unit). */
export interface OverlayRow {
  x: number;
  a?: number;
  b?: number;
  /** The turn of each run's point at this x. */
  turnA?: number;
  turnB?: number;
}

/** A meter drawn for both runs: its unit, the two series merged on x, each run's limit and stage lines. */
export interface Overlay {
  meter: "requests" | "time" | "context" | "edits";
  /** For the edit quota: the block (each block is a meter of its own). */
  blockId?: string;
  unit: TMeterUnit;
  rows: OverlayRow[];
  limits: { a: number | null; b: number | null };
  thresholds: { a: readonly TThreshold[]; b: readonly TThreshold[] };
}

/** Where a turn sits on the x axis: the turn itself, or its share of the run's last turn (percent). */
export function xOf(turn: number, alignment: Alignment, lastTurn: number | null): number {
  if (alignment === "turn") return turn;
  return lastTurn && lastTurn > 0 ? (turn / lastTurn) * 100 : 0;
}

const METERS = ["requests", "time", "context"] as const;

/**
 * The requests, time and context meters and each block's edit quota of two runs' timelines, each
 * overlaid in its own unit (never two units on one axis, never summed): a meter either run measures.
 * A run whose policy has no section for it, or that never edited the block, has no line there.
 */
export function overlays(a: TRunTimeline, b: TRunTimeline, alignment: Alignment): Overlay[] {
  const lastA = a.runTurnRange?.[1] ?? null;
  const lastB = b.runTurnRange?.[1] ?? null;
  const out: Overlay[] = [];
  for (const meter of METERS) {
    const [chartA, chartB] = [a[meter], b[meter]];
    if (!chartA && !chartB) continue;
    const unit = (chartA ?? chartB)!.unit;
    out.push({
      meter,
      unit,
      rows: mergeSeries(
        chartA?.points ?? [],
        chartB?.points ?? [],
        (t) => xOf(t, alignment, lastA),
        (t) => xOf(t, alignment, lastB),
      ),
      limits: { a: chartA ? limitOf(chartA) : null, b: chartB ? limitOf(chartB) : null },
      thresholds: { a: chartA?.thresholds ?? [], b: chartB?.thresholds ?? [] },
    });
  }
  // The edit quota, block by block (the blocks either run edited, by id; at most MAX_BLOCKS).
  const blocks = [...new Set([...(a.edits?.blocks ?? []), ...(b.edits?.blocks ?? [])].map((block) => block.blockId))]
    .sort()
    .slice(0, MAX_BLOCKS);
  for (const blockId of blocks) {
    const [blockA, blockB] = [a.edits?.blocks.find((x) => x.blockId === blockId), b.edits?.blocks.find((x) => x.blockId === blockId)];
    out.push({
      meter: "edits",
      blockId,
      unit: "edits",
      rows: mergeSeries(
        blockA?.points ?? [],
        blockB?.points ?? [],
        (t) => xOf(t, alignment, lastA),
        (t) => xOf(t, alignment, lastB),
      ),
      limits: { a: blockA?.limit ?? null, b: blockB?.limit ?? null },
      thresholds: { a: blockA?.thresholds ?? [], b: blockB?.thresholds ?? [] },
    });
  }
  return out;
}

/** At most this many blocks' edit quotas are overlaid (each run page shows all of its own). */
export const MAX_BLOCKS = 6;

function limitOf(chart: NonNullable<TRunTimeline["requests" | "time" | "context"]>): number {
  return "capacity" in chart ? chart.capacity : chart.limit;
}

/** The two series on one x axis, sorted by x; a row holds both values where both runs have a point at the same x. */
export function mergeSeries(
  a: readonly TMeterPoint[],
  b: readonly TMeterPoint[],
  xA: (turn: number) => number,
  xB: (turn: number) => number,
): OverlayRow[] {
  const rows = new Map<number, OverlayRow>();
  for (const p of a) {
    const x = xA(p.turn);
    rows.set(x, { ...rows.get(x), x, a: p.value, turnA: p.turn });
  }
  for (const p of b) {
    const x = xB(p.turn);
    rows.set(x, { ...rows.get(x), x, b: p.value, turnB: p.turn });
  }
  return [...rows.values()].sort((r, s) => r.x - s.x);
}
