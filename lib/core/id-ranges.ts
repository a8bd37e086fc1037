import { compareCodePoints } from "./code-points";

/**
 * A set of ids as compact JSON: a run of counter ids — the same stem, then consecutive numbers
 * zero-padded to the same width — is one `[stem, width, first, last]`; any other id is itself.
 * Agents usually number their ids (`rc-001`, `rc-002`, …), so a long run's set stays a few entries.
 */
export type IdRanges = (string | [stem: string, width: number, first: number, last: number])[];

/** An id that ends in 1–15 decimal digits (below 2^53, so its number is exact); the stem is the rest. */
const COUNTER_ID = /^(.*?)(\d{1,15})$/;

interface CounterId {
  stem: string;
  width: number;
  n: number;
}

/** The ids as ranges: counter runs first (by stem, width and number), then the other ids, by code point. */
export function toIdRanges(ids: Iterable<string>): IdRanges {
  const counters: CounterId[] = [];
  const others: string[] = [];
  for (const id of ids) {
    const match = COUNTER_ID.exec(id);
    if (match) counters.push({ stem: match[1], width: match[2].length, n: Number(match[2]) });
    else others.push(id);
  }
  counters.sort((a, b) => compareCodePoints(a.stem, b.stem) || a.width - b.width || a.n - b.n);
  const ranges: IdRanges = [];
  for (let i = 0; i < counters.length;) {
    const { stem, width, n } = counters[i];
    let j = i;
    while (
      j + 1 < counters.length &&
      counters[j + 1].stem === stem &&
      counters[j + 1].width === width &&
      counters[j + 1].n === counters[j].n + 1
    ) {
      j++;
    }
    ranges.push(j === i ? counterId(stem, width, n) : [stem, width, n, counters[j].n]);
    i = j + 1;
  }
  for (const id of others.sort(compareCodePoints)) ranges.push(id);
  return ranges;
}

/** Every id the ranges hold (`toIdRanges` reversed, in its order). */
export function fromIdRanges(ranges: IdRanges): string[] {
  const ids: string[] = [];
  for (const entry of ranges) {
    if (typeof entry === "string") ids.push(entry);
    else for (let n = entry[2]; n <= entry[3]; n++) ids.push(counterId(entry[0], entry[1], n));
  }
  return ids;
}

function counterId(stem: string, width: number, n: number): string {
  return stem + String(n).padStart(width, "0");
}
