import {
  CONTEXT_PARTS,
  type TBlockPoint,
  type TContextPart,
  type TContextPartsPoint,
  type TMeterPoint,
  type TTurnDecision,
} from "@/lib/contracts";
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
  /** Contract §11: the final request by part (bytes), on the turns that sent parts. */
  contextParts: TContextPartsPoint[];
}

/** Reads each turn's meters into one series per meter (and per block). A meter without a reading on a turn has no point there. */
export function meterSeries(turns: readonly TTurnDecision[]): MeterSeries {
  const series: MeterSeries = { requests: [], time: [], context: [], blocks: new Map(), contextParts: [] };
  for (const { turn, meters, requiredBytes, contextParts } of turns) {
    if (contextParts) series.contextParts.push({ turn, value: requiredBytes, ...contextParts });
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

/** The parts any of the points has, in contract order. */
export function partsPresent(points: readonly TContextPartsPoint[]): TContextPart[] {
  return CONTEXT_PARTS.filter((part) => points.some((point) => point[part] !== undefined));
}

/** Indices of the points whose stage differs from the previous point's (the first point counts as a change). */
export function stageChanges(points: readonly { stage: number }[]): Set<number> {
  const changes = new Set<number>();
  points.forEach((point, i) => {
    if (i === 0 || point.stage !== points[i - 1].stage) changes.add(i);
  });
  return changes;
}
