import type { TrendBucket } from "./buckets";

/** The trend count keys of contract §10's delivered-vs-dropped and fatigue reads, as SQL LIKE patterns. */
export const EFFECT_KEYS = ["effect.%", "fatigue.%"] as const;
/** Those, and the deliveries per key beside them: what a run's follow-up and fatigue panel sums. */
export const RUN_EFFECT_KEYS = [...EFFECT_KEYS, "reminders.%.delivered"] as const;

/** A SQL LIKE pattern (`%` any run, `_` one character, no escapes) as a whole-string RegExp. */
function likeRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/%/g, ".*")
    .replace(/_/g, ".");
  return new RegExp(`^${body}$`, "s");
}

const RUN_EFFECT = RUN_EFFECT_KEYS.map(likeRegExp);

/**
 * A run's RUN_EFFECT_KEYS counts summed over its trend buckets: what `GET …/effectiveness` of the run
 * shows, stored with the run's rebuild so the read is one row whatever the run's length (a
 * 50,000-turn run has about 1,100 buckets).
 */
export function runEffectCounts(buckets: readonly TrendBucket[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const { counts } of buckets) {
    for (const [key, n] of Object.entries(counts)) {
      if (!RUN_EFFECT.some((re) => re.test(key))) continue;
      sums[key] = (sums[key] ?? 0) + n;
    }
  }
  return sums;
}
