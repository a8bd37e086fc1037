import type {
  TCompaction,
  TFindingMarker,
  TRebuiltReviewer,
  TReviewerChain,
  TReviewerChainBucket,
  TTimelineNotification,
  TTimelineReminder,
} from "@/lib/contracts";
import { chainExtent } from "@/lib/derived/reviewer/lane";

/**
 * Folding long marker lists (docs/architecture.md, Habit 8). A window of a long run can hold tens
 * of thousands of reminders, compactions, Reviewer chains or notifications: more than a chart can
 * show apart, and a timeline that grows with the run. A list longer than its budget becomes one
 * item per bucket of turns and kind (a reminder's stage and status, a compaction's outcome …)
 * that counts what it stands for and spans their turns. Nothing is dropped: every item is counted
 * in its bucket's item, a dropped reminder stays a dropped item, and a zoomed window (fewer items)
 * lists them one by one. Pure and deterministic.
 */

/** Maps a turn of `[first, last]` to one of `count` equal buckets (0 … count − 1). */
export type BucketOf = (turn: number) => number;

/** A folded list has `maxPoints / LANE_BUCKET_ITEMS` buckets: room for a few kinds per bucket within the budget. */
export const LANE_BUCKET_ITEMS = 4;

/** The buckets of a window whose rebuilt turns span `extent` (none: every turn in bucket 0). */
export function laneBuckets(extent: readonly [number, number] | null, maxPoints: number): BucketOf {
  return extent ? turnBuckets(extent[0], extent[1], maxPoints / LANE_BUCKET_ITEMS) : () => 0;
}

export function turnBuckets(first: number, last: number, count: number): BucketOf {
  const span = last - first + 1;
  const n = Math.max(1, Math.floor(count));
  return (turn) => Math.min(n - 1, Math.max(0, Math.floor(((turn - first) * n) / span)));
}

/**
 * Groups `items` by (bucket of their turn, `kindOf`) and folds each group with `fold`, in order of
 * each group's first item; the result is sorted by turn (stable).
 */
function foldGroups<T, F extends { turn: number }>(
  items: readonly T[],
  bucketOf: BucketOf,
  turnOf: (item: T) => number,
  kindOf: (item: T) => string,
  fold: (into: F | undefined, item: T) => F,
): F[] {
  const groups = new Map<string, F>();
  for (const item of items) {
    const id = `${bucketOf(turnOf(item))}\u0000${kindOf(item)}`;
    groups.set(id, fold(groups.get(id), item));
  }
  return [...groups.values()].sort((a, b) => a.turn - b.turn);
}

/**
 * A meter's reminders folded per bucket, subject (an edits reminder's block), stage and status —
 * without the stage when
 * `byStage` is false (the review suggestion's stage is its checkpoint's number, different on every
 * item; the folded item keeps the first one's). `rebuiltTurns` (ascending) are the window's
 * rebuilt turns: a lossless run item (`toTurn` without `count`) stands for one reminder on each
 * rebuilt turn it spans.
 */
export function foldReminders(
  items: readonly TTimelineReminder[],
  bucketOf: BucketOf,
  rebuiltTurns: readonly number[],
  byStage = true,
): TTimelineReminder[] {
  const countOf = (item: TTimelineReminder) =>
    item.count ?? (item.toTurn === undefined ? 1 : upperBound(rebuiltTurns, item.toTurn) - lowerBound(rebuiltTurns, item.turn));
  return foldGroups<TTimelineReminder, TTimelineReminder>(
    items,
    bucketOf,
    (item) => item.turn,
    (item) => `${item.subject ?? ""}\u0000${byStage ? item.stage : ""}\u0000${item.status}`,
    (into, item) => {
      const count = Math.max(1, countOf(item));
      const toTurn = item.toTurn ?? item.turn;
      if (!into) {
        const { subject, freeBytes } = item;
        return {
          turn: item.turn,
          toTurn,
          count,
          ...(subject !== undefined ? { subject } : {}),
          stage: item.stage,
          status: item.status,
          bytes: item.bytes,
          ...(freeBytes !== undefined ? { freeBytes } : {}),
        };
      }
      into.toTurn = Math.max(into.toTurn!, toTurn);
      into.count! += count;
      into.bytes = Math.max(into.bytes, item.bytes);
      if (item.freeBytes !== undefined) into.freeBytes = Math.min(into.freeBytes ?? item.freeBytes, item.freeBytes);
      return into;
    },
  );
}

/** Compactions folded per bucket and outcome (largest original, smallest candidate). */
export function foldCompactions(items: readonly TCompaction[], bucketOf: BucketOf): TCompaction[] {
  return foldGroups<TCompaction, TCompaction>(
    items,
    bucketOf,
    (c) => c.turn,
    (c) => c.outcome,
    (into, c) => {
      if (!into) return { turn: c.turn, toTurn: c.toTurn ?? c.turn, count: c.count ?? 1, ...sizes(c), outcome: c.outcome };
      into.toTurn = Math.max(into.toTurn!, c.toTurn ?? c.turn);
      into.count! += c.count ?? 1;
      into.originalBytes = Math.max(into.originalBytes, c.originalBytes);
      into.candidateBytes = Math.min(into.candidateBytes, c.candidateBytes);
      return into;
    },
  );
}

function sizes(c: TCompaction) {
  return { originalBytes: c.originalBytes, candidateBytes: c.candidateBytes };
}

/** Notifications folded per bucket: the distinct channels, the first message. */
export function foldNotifications(items: readonly TTimelineNotification[], bucketOf: BucketOf): TTimelineNotification[] {
  const channels = new Map<TTimelineNotification, Set<string>>();
  const folded = foldGroups<TTimelineNotification, TTimelineNotification>(
    items,
    bucketOf,
    (n) => n.turn,
    () => "",
    (into, n) => {
      if (!into) {
        const item = { turn: n.turn, toTurn: n.toTurn ?? n.turn, count: n.count ?? 1, channel: n.channel, message: n.message };
        channels.set(item, new Set([n.channel]));
        return item;
      }
      into.toTurn = Math.max(into.toTurn!, n.toTurn ?? n.turn);
      into.count! += n.count ?? 1;
      channels.get(into)!.add(n.channel);
      return into;
    },
  );
  for (const item of folded) item.channel = [...channels.get(item)!].join(", ");
  return folded;
}

/** Finding markers folded per bucket and code. */
export function foldFindings(items: readonly TFindingMarker[], bucketOf: BucketOf): TFindingMarker[] {
  return foldGroups<TFindingMarker, TFindingMarker>(
    items,
    bucketOf,
    (f) => f.turn,
    (f) => f.code,
    (into, f) => {
      if (!into) return { turn: f.turn, toTurn: f.toTurn ?? f.turn, code: f.code, count: f.count };
      into.toTurn = Math.max(into.toTurn!, f.toTurn ?? f.turn);
      into.count += f.count;
      return into;
    },
  );
}

/** The rebuild's Reviewer candidates folded per bucket and admission outcome (every denial reason kept). */
export function foldRebuiltReviewer(items: readonly TRebuiltReviewer[], bucketOf: BucketOf): TRebuiltReviewer[] {
  return foldGroups<TRebuiltReviewer, TRebuiltReviewer>(
    items,
    bucketOf,
    (r) => r.turn,
    (r) => String(r.granted),
    (into, r) => {
      if (!into)
        return {
          turn: r.turn,
          toTurn: r.toTurn ?? r.turn,
          count: r.count ?? 1,
          checkpoint: r.checkpoint,
          granted: r.granted,
          reasons: [...r.reasons],
        };
      into.toTurn = Math.max(into.toTurn!, r.toTurn ?? r.turn);
      into.count! += r.count ?? 1;
      for (const reason of r.reasons) if (!into.reasons.includes(reason)) into.reasons.push(reason);
      return into;
    },
  );
}

/**
 * Recorded Reviewer chains counted per bucket of their first turn; `end` is the run's last turn
 * (a dispatch still running reaches it).
 */
export function foldChains(chains: readonly TReviewerChain[], bucketOf: BucketOf, end: number): TReviewerChainBucket[] {
  return foldGroups<TReviewerChain, TReviewerChainBucket>(
    chains,
    bucketOf,
    (chain) => chainExtent(chain, end)[0],
    () => "",
    (into, chain) => {
      const [first, last] = chainExtent(chain, end);
      const bucket = into ?? { turn: first, toTurn: last, chains: 0, granted: 0, denied: 0, dispatches: 0, running: 0, cancelled: 0 };
      bucket.turn = Math.min(bucket.turn, first);
      bucket.toTurn = Math.max(bucket.toTurn, last);
      bucket.chains++;
      for (const admission of chain.admissions) {
        if (admission.granted) bucket.granted++;
        else bucket.denied++;
      }
      bucket.dispatches += chain.dispatches.length;
      bucket.running += chain.dispatches.filter((d) => d.doneTurn === null).length;
      if (chain.cancelled) bucket.cancelled++;
      return bucket;
    },
  );
}

/** Index of the first element >= value. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element > value. */
function upperBound(sorted: readonly number[], value: number): number {
  return lowerBound(sorted, value + 1);
}
