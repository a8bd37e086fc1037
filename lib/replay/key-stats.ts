import { REMINDER_KEYS, type TKeyStats, type TReminderKey, type TRunDecisions } from "@/lib/contracts";

export function emptyKeyStats(key: TReminderKey): TKeyStats {
  return { key, candidates: 0, included: 0, delivered: 0, dropped: 0, bytesIncluded: 0, dropRate: null };
}

/** Adds one run's decisions into per-key totals (in presentation order of keys). */
export function addKeyStats(totals: TKeyStats[], decisions: TRunDecisions): TKeyStats[] {
  const byKey = new Map(totals.map((s) => [s.key, s]));
  for (const turn of decisions.turns) {
    for (const r of turn.reminders) {
      const stats = byKey.get(r.key)!;
      stats.candidates++;
      if (r.status === "dropped") stats.dropped++;
      else {
        stats.included++;
        stats.bytesIncluded += r.bytes;
        if (r.status === "delivered") stats.delivered++;
      }
    }
  }
  for (const stats of totals) stats.dropRate = stats.candidates === 0 ? null : stats.dropped / stats.candidates;
  return totals;
}

export function keyStatsOf(runs: readonly TRunDecisions[]): TKeyStats[] {
  let totals = REMINDER_KEYS.map(emptyKeyStats);
  for (const decisions of runs) totals = addKeyStats(totals, decisions);
  return totals;
}

/** Adds per-key totals into others (both in presentation order of keys): how runs replayed apart are summed. */
export function mergeKeyStats(totals: TKeyStats[], more: readonly TKeyStats[]): TKeyStats[] {
  const byKey = new Map(more.map((s) => [s.key, s]));
  for (const stats of totals) {
    const other = byKey.get(stats.key);
    if (!other) continue;
    stats.candidates += other.candidates;
    stats.included += other.included;
    stats.delivered += other.delivered;
    stats.dropped += other.dropped;
    stats.bytesIncluded += other.bytesIncluded;
    stats.dropRate = stats.candidates === 0 ? null : stats.dropped / stats.candidates;
  }
  return totals;
}

export type KeyMeasure = "delivered" | "dropped";

/** One key's small multiple: its two counts, its own scale and the change. */
export interface KeyMultiple {
  key: TReminderKey;
  baseline: number;
  whatIf: number;
  /** The top of this key's own scale: the larger count (at least 1, so an empty key draws no bar). */
  scaleMax: number;
  baselineShare: number;
  whatIfShare: number;
  /** E.g. "−2", "+140", "no change". */
  deltaText: string;
}

/**
 * Each key's counts of one measure scaled on their own (0 to the key's larger side): one shared
 * scale would let edits' 11,883 flatten context's 2 → 0.
 */
export function keyMultiples(
  keys: readonly { key: TReminderKey; baseline: TKeyStats; whatIf: TKeyStats }[],
  measure: KeyMeasure,
): KeyMultiple[] {
  return keys.map(({ key, baseline, whatIf }) => {
    const b = baseline[measure];
    const w = whatIf[measure];
    const scaleMax = Math.max(1, b, w);
    const delta = w - b;
    return {
      key,
      baseline: b,
      whatIf: w,
      scaleMax,
      baselineShare: b / scaleMax,
      whatIfShare: w / scaleMax,
      deltaText: delta === 0 ? "no change" : `${delta > 0 ? "+" : "−"}${Math.abs(delta).toLocaleString("en-US")}`,
    };
  });
}
