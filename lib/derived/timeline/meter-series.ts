import type { TBlockPoint, TMeterPoint, TTurnDecision } from "@/lib/contracts";
import { msToMinutes } from "@/lib/format/time";

/** The full-resolution series of the four meters over some rebuilt turns, each in its own unit. */
export interface MeterSeries {
  /** Requests used (requests). */
  requests: TMeterPoint[];
  /** Elapsed time (minutes). */
  time: TMeterPoint[];
  /** Required bytes of the final request (bytes). */
  context: TMeterPoint[];
  /** Edits used per block (edits), with the block's limit on every point (folded later). */
  blocks: Map<string, TBlockPoint[]>;
}

/** Reads each turn's meters into one series per meter (and per block). A meter without a reading on a turn has no point there. */
export function meterSeries(turns: readonly TTurnDecision[]): MeterSeries {
  const series: MeterSeries = { requests: [], time: [], context: [], blocks: new Map() };
  for (const { turn, meters } of turns) {
    if (meters.requests) series.requests.push({ turn, value: meters.requests.used, stage: meters.requests.stage });
    if (meters.time) series.time.push({ turn, value: msToMinutes(meters.time.elapsedMs), stage: meters.time.stage });
    if (meters.context) series.context.push({ turn, value: meters.context.requiredBytes, stage: meters.context.stage });
    for (const block of meters.edits ?? []) {
      let points = series.blocks.get(block.blockId);
      if (!points) series.blocks.set(block.blockId, (points = []));
      points.push({ turn, value: block.used, stage: block.stage, limit: block.limit });
    }
  }
  return series;
}

/** Indices of the points whose stage differs from the previous point's (the first point counts as a change). */
export function stageChanges(points: readonly { stage: number }[]): Set<number> {
  const changes = new Set<number>();
  points.forEach((point, i) => {
    if (i === 0 || point.stage !== points[i - 1].stage) changes.add(i);
  });
  return changes;
}
