import { REMINDER_KEYS, REVIEWER_FINDING_CODES, type TCopy, type TEvent, type TReminderKey, type TRunDecisions } from "@/lib/contracts";
import { actionsByTurn, fingerprint, followUp, resolveCopy } from "@/lib/core";
import { addEffectCounts, addFatigueCounts } from "@/lib/derived/effectiveness/effectiveness";

/**
 * The version of this computation. A run whose stored buckets were made by another version (or by
 * none) is rebuilt by the sweep of stale runs, which stores its buckets again. Raise it whenever
 * what trendBuckets stores changes.
 */
export const TREND_VERSION = 2;

/** A bucket's length: 15 minutes, so that any real-world time zone's day is a whole number of buckets. */
export const BUCKET_MS = 15 * 60 * 1000;

/**
 * A bucket's counts as flat keys (zero counts left out), each a count of one unit:
 * - `turns`: rebuilt turns (turns);
 * - `reminders.<key>.candidates|delivered|dropped`: reminders decided, delivered, dropped (reminders);
 * - `findings.<CODE>`: findings of that code (findings);
 * - `reviewerViolations`: Reviewer findings (findings);
 * - `followUp.<key>.delivered|followed`: delivered reminders contract §8 follows up, and those followed (reminders);
 * - `effect.<key>.<stage>.<ctx>.delivered|deliveredFollowed|dropped|droppedFollowed`: contract §10's delivered
 *   and dropped reminders whose follow-up §8 decides, and those followed, by the reminder's key and stage and
 *   the turn's context stage `<ctx>` (an integer, or `none` without a context meter) (reminders);
 * - `fatigue.<key>.repeats` (reminders), `fatigue.<key>.repeatGapTurns` (turns), `fatigue.<key>.bytes`,
 *   `fatigue.<key>.contextBytes` and `fatigue.capacityBytes` (bytes), `fatigue.runsWithReminderBytes` and
 *   `fatigue.<key>.dominatedRuns` (runs, in the bucket of the run's last turn): contract §10's fatigue
 *   (lib/derived/effectiveness/effectiveness.ts).
 *
 * Version 2 added the `effect.` and `fatigue.` keys.
 */
export type TrendCounts = Record<string, number>;

export interface TrendBucket {
  /** The bucket's start, in ms since the epoch (a multiple of BUCKET_MS). */
  bucketMs: number;
  counts: TrendCounts;
}

/** What a run's buckets are filtered by: its copy and policy versions as fingerprints. */
export interface TrendVersions {
  copyVersion: string;
  policyVersion: string;
}

/** The copy version a run's reminders were rendered with: the fingerprint of its copy resolved over the default. */
export function copyVersionOf(copy: TCopy | null | undefined): string {
  return fingerprint(resolveCopy(copy ?? undefined));
}

/** The policy version a run started with: the fingerprint of its policy. */
export function policyVersionOf(policy: unknown): string {
  return fingerprint(policy ?? {});
}

/** The start of the 15-minute UTC bucket holding `ms`. */
export function bucketOf(ms: number): number {
  return Math.floor(ms / BUCKET_MS) * BUCKET_MS;
}

/**
 * A run's counts per 15-minute UTC bucket of its turns' times. Pure: the rebuild computes them
 * beside the decisions and one transaction stores both (lib/server/trends/store-buckets.ts).
 *
 * - `decisions`: the run's rebuilt decisions;
 * - `events`: events holding at least every `model.action` of the run (others are ignored), for the
 *   follow-up of contract §8;
 * - `turnTimes`: each turn's time (ms since the epoch; the job takes its earliest event's). A turn
 *   without a time takes the time of the nearest earlier turn that has one, else of the nearest later.
 *
 * `effect: false` leaves out contract §10's `effect.` and `fatigue.` keys (the counts as before them:
 * the rebuild bench's baseline, and a test that the one pass counts §8's follow-up as before).
 *
 * A finding with a turn counts in that turn's bucket; a run-level finding (no turn) in the bucket of
 * the run's last turn. A run with no turn with a time has no buckets. Buckets come in time order.
 */
export function trendBuckets(
  decisions: TRunDecisions,
  events: readonly TEvent[],
  turnTimes: ReadonlyMap<number, number>,
  options: { effect?: boolean } = {},
): TrendBucket[] {
  const turns = decisions.turns.map((t) => t.turn);
  const timeOf = timesOfTurns(turns, turnTimes);
  if (timeOf.size === 0) return [];
  // Each bucket's counts as a Map while counting (a run adds counts to dozens of names per bucket,
  // which a Map takes faster than an object's properties), an object once sorted.
  const buckets = new Map<number, Map<string, number>>();
  // The counts of the turn last added to: most additions come turn by turn.
  let lastTurn: number | null | undefined;
  let lastCounts = new Map<string, number>();
  const add = (turn: number | null, key: string, n = 1) => {
    if (turn !== lastTurn) {
      const ms = turn === null ? undefined : timeOf.get(turn);
      const at = bucketOf(ms ?? timeOf.get(turns[turns.length - 1])!);
      let counts = buckets.get(at);
      if (!counts) buckets.set(at, (counts = new Map()));
      lastTurn = turn;
      lastCounts = counts;
    }
    lastCounts.set(key, (lastCounts.get(key) ?? 0) + n);
  };

  for (const decision of decisions.turns) {
    add(decision.turn, "turns");
    for (const reminder of decision.reminders) {
      const names = REMINDER_NAMES[reminder.key];
      add(decision.turn, names.candidates);
      if (reminder.status === "delivered") add(decision.turn, names.delivered);
      if (reminder.status === "dropped") add(decision.turn, names.dropped);
    }
  }
  const known = new Set(turns);
  for (const finding of decisions.findings) {
    const turn = finding.turn !== null && known.has(finding.turn) ? finding.turn : null;
    add(turn, `findings.${finding.code}`);
    if ((REVIEWER_FINDING_CODES as readonly string[]).includes(finding.code)) add(turn, "reviewerViolations");
  }
  const actions = actionsByTurn(events);
  if (options.effect === false) {
    for (const item of followUp(decisions, events, { actions }).items) {
      add(item.turn, `followUp.${item.key}.delivered`);
      if (item.followed) add(item.turn, `followUp.${item.key}.followed`);
    }
  } else {
    // §8's follow-up and §10's delivered-vs-dropped in one pass, then §10's fatigue.
    addEffectCounts(decisions, actions, add, { followUp: true });
    addFatigueCounts(decisions, add);
  }
  return [...buckets].sort((a, b) => a[0] - b[0]).map(([bucketMs, counts]) => ({ bucketMs, counts: sortedCounts(counts) }));
}

/** `reminders.<key>.candidates|delivered|dropped`, made once (they are added for every reminder of a run). */
const REMINDER_NAMES = Object.fromEntries(
  REMINDER_KEYS.map((key) => [
    key,
    { candidates: `reminders.${key}.candidates`, delivered: `reminders.${key}.delivered`, dropped: `reminders.${key}.dropped` },
  ]),
) as Record<TReminderKey, { candidates: string; delivered: string; dropped: string }>;

/** Each turn's time: its own, else the nearest earlier turn's, else the nearest later turn's. */
function timesOfTurns(turns: readonly number[], turnTimes: ReadonlyMap<number, number>): Map<number, number> {
  const times = new Map<number, number>();
  let last: number | undefined;
  for (const turn of turns) {
    last = turnTimes.get(turn) ?? last;
    if (last !== undefined) times.set(turn, last);
  }
  const first = turns.find((t) => times.has(t));
  if (first === undefined) return times;
  for (const turn of turns) {
    if (times.has(turn)) break;
    times.set(turn, times.get(first)!);
  }
  return times;
}

function sortedCounts(counts: ReadonlyMap<string, number>): TrendCounts {
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
