/**
 * Tick turns for the shared turn axis: whole turns on a 1-2-5 step, about `target` of them, so
 * every chart, strip and lane of the page shows the same ticks for the same window.
 */
export function turnTicks(from: number, to: number, target = 8): number[] {
  if (!(to >= from)) return [];
  const span = to - from;
  if (span === 0) return [from];
  const raw = span / Math.max(1, target);
  const power = 10 ** Math.floor(Math.log10(raw));
  // The 1-2-5 step whose tick count is closest to the target (ties: the wider step).
  const steps = [1, 2, 5, 10].map((m) => Math.max(1, m * power));
  const step = steps.reduce((best, s) => (Math.abs(span / s - target) <= Math.abs(span / best - target) ? s : best));
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

/**
 * The value axis of one meter chart: from 0 to a little above the largest of its values and of
 * its reference lines (limit, capacity, thresholds), so every line is on the chart.
 */
export function valueDomain(values: readonly number[], references: readonly number[], headroom = 0.06): [number, number] {
  let max = 0;
  for (const v of values) if (Number.isFinite(v) && v > max) max = v;
  for (const v of references) if (Number.isFinite(v) && v > max) max = v;
  if (max === 0) return [0, 1];
  return [0, max * (1 + headroom)];
}

/**
 * Ticks of a value axis from 0 to `max` (the top of the domain): multiples of a 1-2-5 step
 * (2.5 too from 25 up, never a fraction of a count below 1), about `target` intervals.
 */
export function valueTicks(max: number, target = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  const raw = max / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const multiples = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const steps = multiples.map((m) => m * power).filter((s) => s >= 1 || max < 1);
  // The step whose number of intervals is closest to the target (ties: the wider step).
  const step = steps.reduce(
    (best, s) => (Math.abs(max / s - target) <= Math.abs(max / best - target) ? s : best),
    steps[steps.length - 1] ?? 1,
  );
  const ticks: number[] = [];
  for (let i = 0; i * step <= max + 1e-9; i++) ticks.push(Math.round(i * step * 1e6) / 1e6);
  return ticks;
}

/**
 * The value axis of a zoomed meter chart: fitted to the window's own values, not to the run's
 * limits, so a change of a few units in a zoomed window is visible (reference lines outside it are
 * left out by the chart). The domain's ends are multiples of a 1-2-5 step (never a fraction of a
 * count below 1), about `target` intervals, and never below 0; a flat series gets a step either side.
 */
export function zoomedValueScale(values: readonly number[], target = 4): { domain: [number, number]; ticks: number[] } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max || max === 0) return { domain: [0, 1], ticks: [0, 1] };
  const span = max - min;
  const raw = (span > 0 ? span : Math.max(1, Math.abs(max) / 10)) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const multiples = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const step = multiples.map((m) => m * power).find((s) => s >= raw && (s >= 1 || max < 1)) ?? 10 * power;
  let lo = Math.max(0, Math.floor(min / step) * step);
  let hi = Math.ceil(max / step) * step;
  if (hi - lo < step) [lo, hi] = [Math.max(0, lo - step), hi + step];
  else if (hi === max && span > 0) hi += step; // headroom above the highest point
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + 1e-9; i++) ticks.push(Math.round((lo + i * step) * 1e6) / 1e6);
  return { domain: [lo, hi], ticks };
}
