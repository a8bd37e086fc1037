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
