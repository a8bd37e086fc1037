import { REMINDER_KEYS, type TReminderKey, type TRunDecisions } from "@/lib/contracts";

/** Per reminder key: how many candidates were made, delivered, dropped, and the bytes they cost. */
export interface KeyStats {
  key: TReminderKey;
  candidates: number;
  /** Included in the request (any status but dropped). */
  included: number;
  delivered: number;
  dropped: number;
  /** Bytes of the included reminders (what they took from the request's capacity). */
  bytesIncluded: number;
  /** dropped / candidates; null without candidates. */
  dropRate: number | null;
}

export function emptyKeyStats(key: TReminderKey): KeyStats {
  return { key, candidates: 0, included: 0, delivered: 0, dropped: 0, bytesIncluded: 0, dropRate: null };
}

/** Adds one run's decisions into per-key totals (in presentation order of keys). */
export function addKeyStats(totals: KeyStats[], decisions: TRunDecisions): KeyStats[] {
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

export function keyStatsOf(runs: readonly TRunDecisions[]): KeyStats[] {
  let totals = REMINDER_KEYS.map(emptyKeyStats);
  for (const decisions of runs) totals = addKeyStats(totals, decisions);
  return totals;
}
