/** A point of a series: its `value` is what min/max bucketing compares; `turn` orders it. */
export interface SeriesPoint {
  turn: number;
  value: number;
}

/**
 * Reduces a series (ascending turns) for drawing, keeping what a reader must not lose:
 *
 * 1. Always, without loss: a point equal (in every field but `turn`) to both its neighbours adds
 *    nothing to a line or step chart and is folded away (a block's edit count that stays 2 for
 *    3,000 turns becomes its two ends). Markers are never folded.
 * 2. Only if still longer than `maxPoints`, min/max decimation keeps:
 *    - every **marker** point (`isMarker` true: a turn with a dropped/failed/uncertain reminder, a
 *      finding, a compaction, a stage change … — the caller decides), always;
 *    - the first and last points, and the series' global minimum and maximum (peaks survive);
 *    - while the budget lasts, the minimum and the maximum of each of equal-sized buckets (the
 *      drawn envelope keeps every spike of its bucket).
 *
 * Bound: the result has at most `max(maxPoints, markers + 4)` points, where `markers` is the
 * number of marker points: markers are never dropped, so a series with more markers than the
 * budget exceeds `maxPoints` by them (buckets then add nothing). The kept points are the input
 * objects, in order. Pure and deterministic.
 */
export function downsample<P extends SeriesPoint>(
  points: readonly P[],
  maxPoints: number,
  isMarker: (point: P, index: number) => boolean = () => false,
): P[] {
  return thinSeries(points, maxPoints, isMarker).points;
}

/** `downsample`, also telling whether min/max decimation (the lossy step) was needed. */
export function thinSeries<P extends SeriesPoint>(
  points: readonly P[],
  maxPoints: number,
  isMarker: (point: P, index: number) => boolean = () => false,
): { points: P[]; lossy: boolean } {
  const folded = foldConstantRuns(points, isMarker);
  if (folded.length <= maxPoints) return { points: folded.map((i) => points[i]), lossy: false };

  const keep = new Set<number>();
  const last = folded.length - 1;
  keep.add(0).add(last);
  let min = 0;
  let max = 0;
  folded.forEach((source, at) => {
    if (isMarker(points[source], source)) keep.add(at);
    if (points[source].value < points[folded[min]].value) min = at;
    if (points[source].value > points[folded[max]].value) max = at;
  });
  keep.add(min).add(max);

  const buckets = Math.floor((maxPoints - keep.size) / 2);
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * folded.length) / buckets);
    const to = Math.floor(((b + 1) * folded.length) / buckets);
    if (to <= from) continue;
    let lo = from;
    let hi = from;
    for (let at = from + 1; at < to; at++) {
      const value = points[folded[at]].value;
      if (value < points[folded[lo]].value) lo = at;
      if (value > points[folded[hi]].value) hi = at;
    }
    keep.add(lo).add(hi);
  }
  return { points: [...keep].sort((a, b) => a - b).map((at) => points[folded[at]]), lossy: true };
}

/** Indices of the points left after dropping interior points equal to both neighbours (markers stay). */
function foldConstantRuns<P extends SeriesPoint>(points: readonly P[], isMarker: (point: P, index: number) => boolean): number[] {
  const kept: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const interior = i > 0 && i < points.length - 1;
    if (interior && !isMarker(points[i], i) && sameReading(points[i - 1], points[i]) && sameReading(points[i], points[i + 1])) continue;
    kept.push(i);
  }
  return kept;
}

/** Equal in every field but `turn` (points are flat records of numbers and strings). */
function sameReading(a: SeriesPoint, b: SeriesPoint): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const keysA = Object.keys(ra);
  if (keysA.length !== Object.keys(rb).length) return false;
  for (const key of keysA) if (key !== "turn" && ra[key] !== rb[key]) return false;
  return true;
}
