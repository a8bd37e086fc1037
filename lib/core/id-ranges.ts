import { compareCodePoints } from "./code-points";

/**
 * A set of ids as compact JSON: a run of counter ids — the same stem, then consecutive numbers
 * zero-padded to the same width — is one `[stem, width, first, last]`; any other id is itself.
 * Agents usually number their ids (`rc-001`, `rc-002`, …), so a long run's set stays a few entries.
 */
export type IdRanges = (string | [stem: string, width: number, first: number, last: number])[];

/** Up to 15 trailing digits make a counter id: below 2^53, so its number is exact. */
const MAX_WIDTH = 15;

/** The counter ids of one stem and width: disjoint ranges, ascending, none adjacent to the next. */
interface CounterGroup {
  stem: string;
  width: number;
  /** first0, last0, first1, last1, … */
  bounds: number[];
}

/**
 * A set of ids held as `IdRanges`: the Reviewer audit's ids, which a rebuild checkpoint stores, so
 * that taking and restoring it costs the number of ranges, not of ids. `has` and `add` find an id's
 * range by binary search; adding the next number of a range extends it.
 */
export class IdSet {
  private readonly groups = new Map<string, CounterGroup>();
  private readonly others = new Set<string>();

  static fromRanges(ranges: IdRanges): IdSet {
    const set = new IdSet();
    for (const entry of ranges) {
      if (typeof entry === "string") set.add(entry);
      else insertRange(set.group(entry[0], entry[1]).bounds, entry[2], entry[3]);
    }
    return set;
  }

  has(id: string): boolean {
    const width = counterWidth(id);
    if (width === 0) return this.others.has(id);
    const stem = id.slice(0, id.length - width);
    const group = this.groups.get(groupKey(stem, width));
    if (group === undefined) return false;
    const n = Number(id.slice(stem.length));
    const at = rangeAt(group.bounds, n);
    return at >= 0 && n <= group.bounds[at + 1];
  }

  add(id: string): void {
    const width = counterWidth(id);
    if (width === 0) {
      this.others.add(id);
      return;
    }
    const stem = id.slice(0, id.length - width);
    const n = Number(id.slice(stem.length));
    const { bounds } = this.group(stem, width);
    if (bounds.length > 0 && bounds[bounds.length - 1] === n - 1)
      bounds[bounds.length - 1] = n; // the next number: the usual case
    else insertRange(bounds, n, n);
  }

  /** The set as ranges: counter groups by stem and width, then the other ids, by code point. */
  toRanges(): IdRanges {
    const ranges: IdRanges = [];
    const groups = [...this.groups.values()].sort((a, b) => compareCodePoints(a.stem, b.stem) || a.width - b.width);
    for (const { stem, width, bounds } of groups) {
      for (let k = 0; k < bounds.length; k += 2) {
        ranges.push(bounds[k] === bounds[k + 1] ? counterId(stem, width, bounds[k]) : [stem, width, bounds[k], bounds[k + 1]]);
      }
    }
    for (const id of [...this.others].sort(compareCodePoints)) ranges.push(id);
    return ranges;
  }

  private group(stem: string, width: number): CounterGroup {
    const key = groupKey(stem, width);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { stem, width, bounds: [] };
      this.groups.set(key, group);
    }
    return group;
  }
}

/** The ids as ranges (a set's `toRanges`). */
export function toIdRanges(ids: Iterable<string>): IdRanges {
  const set = new IdSet();
  for (const id of ids) set.add(id);
  return set.toRanges();
}

/** Every id the ranges hold, in their order. */
export function fromIdRanges(ranges: IdRanges): string[] {
  const ids: string[] = [];
  for (const entry of ranges) {
    if (typeof entry === "string") ids.push(entry);
    else for (let n = entry[2]; n <= entry[3]; n++) ids.push(counterId(entry[0], entry[1], n));
  }
  return ids;
}

/** How many trailing decimal digits (at most 15) make the id a counter id; 0 when none. */
function counterWidth(id: string): number {
  let width = 0;
  while (width < MAX_WIDTH && width < id.length) {
    const unit = id.charCodeAt(id.length - 1 - width);
    if (unit < 48 || unit > 57) break;
    width++;
  }
  return width;
}

function groupKey(stem: string, width: number): string {
  return `${width}\u0000${stem}`;
}

function counterId(stem: string, width: number, n: number): string {
  return stem + String(n).padStart(width, "0");
}

/** The index (even) of the last range whose first number is <= n; -2 when none. */
function rangeAt(bounds: readonly number[], n: number): number {
  let lo = 0,
    hi = bounds.length / 2 - 1,
    found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (bounds[2 * mid] <= n) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return 2 * found;
}

/** Adds first..last to the ranges, joining every range it overlaps or touches. */
function insertRange(bounds: number[], first: number, last: number): void {
  const count = bounds.length / 2;
  let lo = 0; // the first range that ends at first - 1 or later
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bounds[2 * mid + 1] < first - 1) lo = mid + 1;
    else hi = mid;
  }
  let end = lo; // past the last range that starts at last + 1 or earlier
  while (end < count && bounds[2 * end] <= last + 1) end++;
  if (end > lo) {
    first = Math.min(first, bounds[2 * lo]);
    last = Math.max(last, bounds[2 * end - 1]);
  }
  bounds.splice(2 * lo, 2 * (end - lo), first, last);
}
