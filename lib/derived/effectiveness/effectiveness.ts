import { REMINDER_KEYS, type TPolicy, type TReminderKey, type TRunDecisions } from "@/lib/contracts";
import { followUpOf, type ActionsByTurn } from "@/lib/core";

/**
 * Adds `n` to count `key` at `turn` (the turn's trend bucket), or at the run level (`turn` null:
 * the bucket of the run's last turn, as run-level findings).
 */
export type AddCount = (turn: number | null, key: string, n: number) => void;

/** The context stage a turn's counts are grouped by (contract §10): its context meter's stage, or `none`. */
function contextStageOf(decision: TRunDecisions["turns"][number]): number | "none" {
  return decision.meters.context ? decision.meters.context.stage : "none";
}

const KEY_INDEX: Record<TReminderKey, number> = Object.fromEntries(REMINDER_KEYS.map((k, i) => [k, i])) as Record<TReminderKey, number>;
/** Stages and context stages below this are coded as numbers (any stage of a real policy); a name with others is built each time. */
const SMALL = 1024;

/**
 * The stage part of a `review` count's name (contract §10): a review suggestion's stage is its
 * checkpoint k (R7), a new one every `everyTurns` turns, so its counts are kept for every checkpoint
 * together (grouped per checkpoint, a run's rows grew with its length: 10,000 rows for 50,000 turns).
 */
export const EVERY_CHECKPOINT = "all";

/** §8's `followUp.<key>.delivered|followed` for each key, made once. */
const FOLLOW_UP = Object.fromEntries(
  REMINDER_KEYS.map((key) => [key, { delivered: `followUp.${key}.delivered`, followed: `followUp.${key}.followed` }]),
) as Record<TReminderKey, { delivered: string; followed: string }>;

/**
 * Contract §10, "Delivered and dropped reminders": every reminder `delivered` or `dropped` at turn
 * t whose follow-up §8's rule decides (an `edits` state of a block that is not exhausted is not),
 * and whether it was followed, counted at t as
 * `effect.<key>.<stage>.<ctx>.delivered|deliveredFollowed|dropped|droppedFollowed` (reminders),
 * `<ctx>` the turn's context meter stage or `none`, `<stage>` the reminder's stage, or for `review`
 * EVERY_CHECKPOINT.
 *
 * `followUp: true`: also §8's `followUp.<key>.delivered|followed` for the delivered ones (the
 * trend buckets' follow-up, the same reminders as lib/core followUp's items), decided in the same
 * pass, so a reminder's follow-up is worked out once.
 */
export function addEffectCounts(
  decisions: TRunDecisions,
  actions: ActionsByTurn,
  add: AddCount,
  options: { followUp?: boolean } = {},
): void {
  const turns = decisions.turns;
  // The count names, each made once: a run adds tens of thousands of counts under a few dozen names,
  // and a name built anew for each (then hashed again as a property key) cost more than the counting.
  const names = new Map<number, string>();
  const followedNames = new Map<number, string>();
  for (let i = 0; i < turns.length; i++) {
    const decision = turns[i];
    let ctx: number | "none" | undefined;
    for (const reminder of decision.reminders) {
      const { status, key, stage } = reminder;
      if (status !== "delivered" && status !== "dropped") continue;
      const followed = followUpOf(reminder, decision, turns[i + 1], actions);
      if (followed === null) continue;
      if (options.followUp && status === "delivered") {
        add(decision.turn, FOLLOW_UP[key].delivered, 1);
        if (followed) add(decision.turn, FOLLOW_UP[key].followed, 1);
      }
      ctx ??= contextStageOf(decision);
      const ctxCode = ctx === "none" ? SMALL - 1 : ctx;
      // A review suggestion's stage is its checkpoint (R7): its groups take every checkpoint together
      // (coded as SMALL - 1, which no other stage coded here reaches).
      const group = key === "review" ? EVERY_CHECKPOINT : stage;
      const stageCode = key === "review" ? SMALL - 1 : stage;
      // The name's key, stage, context stage and status as one number, when they are small (always, in practice).
      const code =
        (key === "review" || stage < SMALL - 1) && (ctx === "none" || ctx < SMALL - 1)
          ? ((KEY_INDEX[key] * SMALL + stageCode) * SMALL + ctxCode) * 2 + (status === "dropped" ? 1 : 0)
          : -1;
      let name = code < 0 ? undefined : names.get(code);
      if (name === undefined) {
        name = `effect.${key}.${group}.${ctx}.${status}`;
        if (code >= 0) names.set(code, name);
      }
      add(decision.turn, name, 1);
      if (followed) {
        let followedName = code < 0 ? undefined : followedNames.get(code);
        if (followedName === undefined) {
          followedName = `${name}Followed`;
          if (code >= 0) followedNames.set(code, followedName);
        }
        add(decision.turn, followedName, 1);
      }
    }
  }
}

/** `fatigue.<key>.<what>` for each key, made once. */
const FATIGUE = Object.fromEntries(
  REMINDER_KEYS.map((key) => [
    key,
    {
      repeats: `fatigue.${key}.repeats`,
      repeatGapTurns: `fatigue.${key}.repeatGapTurns`,
      bytes: `fatigue.${key}.bytes`,
      contextBytes: `fatigue.${key}.contextBytes`,
      dominatedRuns: `fatigue.${key}.dominatedRuns`,
    },
  ]),
) as Record<TReminderKey, Record<"repeats" | "repeatGapTurns" | "bytes" | "contextBytes" | "dominatedRuns", string>>;

/**
 * Contract §10, "Fatigue", over the run's turns (all of them: repeats look back to the run's first):
 * - `fatigue.<key>.repeats` (reminders): deliveries of a (key, subject, stage) the run delivered before;
 * - `fatigue.<key>.repeatGapTurns` (turns): per repeat, its turn minus the previous delivery's;
 * - `fatigue.<key>.bytes` (bytes): delivered reminder bytes;
 * - `fatigue.<key>.contextBytes` (bytes): delivered bytes on turns with a context meter;
 * - `fatigue.capacityBytes` (bytes): the context meter's capacityBytes, per turn that has one;
 * at the turn; and at the run level (`turn` null)
 * - `fatigue.runsWithReminderBytes` (runs): 1 when the run delivered any reminder bytes;
 * - `fatigue.<key>.dominatedRuns` (runs): 1 when the key's delivered bytes are more than half of them.
 */
export function addFatigueCounts(decisions: TRunDecisions, add: AddCount): void {
  // The turn of the last delivery of each (key, stage), per subject (null: the key's one subject).
  const lastDelivery = new Map<number | string, Map<string | null, number>>();
  const bytesOf = new Map<TReminderKey, number>();
  let total = 0;
  for (const decision of decisions.turns) {
    const context = decision.meters.context;
    if (context) add(decision.turn, "fatigue.capacityBytes", context.capacityBytes);
    for (const reminder of decision.reminders) {
      if (reminder.status !== "delivered") continue;
      const { key, stage, subject, bytes } = reminder;
      const turn = decision.turn;
      const names = FATIGUE[key];
      const keyStage = stage < SMALL ? KEY_INDEX[key] * SMALL + stage : `${key}.${stage}`;
      let bySubject = lastDelivery.get(keyStage);
      if (!bySubject) lastDelivery.set(keyStage, (bySubject = new Map()));
      const before = bySubject.get(subject);
      if (before !== undefined) {
        add(turn, names.repeats, 1);
        add(turn, names.repeatGapTurns, turn - before);
      }
      bySubject.set(subject, turn);
      add(turn, names.bytes, bytes);
      if (context) add(turn, names.contextBytes, bytes);
      bytesOf.set(key, (bytesOf.get(key) ?? 0) + bytes);
      total += bytes;
    }
  }
  if (total > 0) {
    add(null, "fatigue.runsWithReminderBytes", 1);
    for (const [key, bytes] of bytesOf) if (bytes * 2 > total) add(null, FATIGUE[key].dominatedRuns, 1);
  }
}

/**
 * The policy of a holdout run with the experiment key's `remind: false` taken away (contract §10:
 * due reminders come from a rebuild with `remind` taken as true for that key); null when the run's
 * policy does not turn that key's reminders off, so its own decisions hold its due reminders.
 */
export function duePolicyOf(policy: TPolicy, key: TReminderKey): TPolicy | null {
  const section = policy[key];
  if (!section || section.remind !== false) return null;
  const rest = { ...section };
  delete rest.remind;
  return { ...policy, [key]: rest };
}

/** What the per-run experiment counts read. */
export interface ExperimentRunInput {
  decisions: TRunDecisions;
  actions: ActionsByTurn;
  /** The status of the run's `run.ended`. */
  endedStatus: "completed" | "failed" | "stopped";
  /**
   * The experiment's key and, when the run's policy turned its reminders off (a holdout: duePolicyOf),
   * the decisions of a rebuild of the run with them on, whose reminders of that key are its due ones.
   */
  experimentKey?: TReminderKey;
  dueDecisions?: TRunDecisions;
}

/**
 * One ended run's counts for an experiment's results (contract §10, "Experiments"), every one an
 * additive integer so that the rows of many runs are summed (experiment_runs → experiment_rollups):
 *
 * - `runs`: 1;
 * - per ratio metric m, this run's numerator X and denominator Y as `m.x`, `m.y`, and `m.xx`, `m.yy`,
 *   `m.xy` (X², Y², X·Y), for the delta method with the run as the unit. The metrics:
 *   `due.<key>` (due reminders followed / due reminders: the key's reminders of any status, or for
 *   the experiment's key of a holdout run those of `dueDecisions`), `followUp.<key>` (delivered
 *   reminders followed / delivered), `drop.<key>` (dropped / every reminder decided),
 *   `bytesPerTurn` (delivered reminder bytes / turns), `findingsPerTurn` (findings / turns). A
 *   reminder whose follow-up §8 does not decide (an `edits` state of a block not exhausted) is in
 *   neither `due` nor `followUp`;
 * - shares of runs: `finished` (1 when run.ended's status is `completed`); `outOfRequests.n` (1 when
 *   the run has a requests meter) and `outOfRequests.x` (1 when, at the last turn that has one,
 *   `used >= limit − deliveryReserve`); `outOfTime.n|x` the same with `elapsedMs >= limitMs`;
 * - means per run: `requestsLeft.n|sum|sumSq` (`limit − deliveryReserve − used` at that last turn,
 *   may be negative), `timeLeftMs.n|sum|sumSq` (`limitMs − elapsedMs`).
 *
 * Zero counts are left out (as in the trend buckets).
 */
export function experimentRunCounts(input: ExperimentRunInput): Record<string, number> {
  const { decisions, actions } = input;
  const counts: Record<string, number> = {};
  const set = (key: string, n: number) => {
    if (n !== 0) counts[key] = n;
  };
  const ratio = (metric: string, x: number, y: number) => {
    set(`${metric}.x`, x);
    set(`${metric}.y`, y);
    set(`${metric}.xx`, x * x);
    set(`${metric}.yy`, y * y);
    set(`${metric}.xy`, x * y);
  };
  set("runs", 1);

  type Tally = { due: number; dueFollowed: number; delivered: number; deliveredFollowed: number; dropped: number; decided: number };
  const tally = new Map<TReminderKey, Tally>(
    REMINDER_KEYS.map((key) => [key, { due: 0, dueFollowed: 0, delivered: 0, deliveredFollowed: 0, dropped: 0, decided: 0 }]),
  );
  const holdoutKey = input.dueDecisions ? input.experimentKey : undefined;
  let bytes = 0;
  const turns = decisions.turns;
  for (let i = 0; i < turns.length; i++) {
    const decision = turns[i];
    for (const reminder of decision.reminders) {
      const t = tally.get(reminder.key)!;
      t.decided++;
      if (reminder.status === "dropped") t.dropped++;
      if (reminder.status === "delivered") bytes += reminder.bytes;
      const countsDue = reminder.key !== holdoutKey;
      if (!countsDue && reminder.status !== "delivered") continue;
      const followed = followUpOf(reminder, decision, turns[i + 1], actions);
      if (followed === null) continue;
      if (countsDue) {
        t.due++;
        if (followed) t.dueFollowed++;
      }
      if (reminder.status === "delivered") {
        t.delivered++;
        if (followed) t.deliveredFollowed++;
      }
    }
  }
  if (holdoutKey && input.dueDecisions) {
    const t = tally.get(holdoutKey)!;
    const due = input.dueDecisions.turns;
    for (let i = 0; i < due.length; i++) {
      for (const reminder of due[i].reminders) {
        if (reminder.key !== holdoutKey) continue;
        const followed = followUpOf(reminder, due[i], due[i + 1], actions);
        if (followed === null) continue;
        t.due++;
        if (followed) t.dueFollowed++;
      }
    }
  }
  for (const [key, t] of tally) {
    ratio(`due.${key}`, t.dueFollowed, t.due);
    ratio(`followUp.${key}`, t.deliveredFollowed, t.delivered);
    ratio(`drop.${key}`, t.dropped, t.decided);
  }
  ratio("bytesPerTurn", bytes, turns.length);
  ratio("findingsPerTurn", decisions.findings.length, turns.length);
  set("finished", input.endedStatus === "completed" ? 1 : 0);

  let requests: NonNullable<(typeof turns)[number]["meters"]["requests"]> | undefined;
  let time: NonNullable<(typeof turns)[number]["meters"]["time"]> | undefined;
  for (let i = turns.length - 1; i >= 0 && (!requests || !time); i--) {
    requests ??= turns[i].meters.requests;
    time ??= turns[i].meters.time;
  }
  if (requests) {
    const left = requests.limit - requests.reserve - requests.used;
    set("outOfRequests.n", 1);
    set("outOfRequests.x", left <= 0 ? 1 : 0);
    set("requestsLeft.n", 1);
    set("requestsLeft.sum", left);
    set("requestsLeft.sumSq", left * left);
  }
  if (time) {
    const left = time.limitMs - time.elapsedMs;
    set("outOfTime.n", 1);
    set("outOfTime.x", left <= 0 ? 1 : 0);
    set("timeLeftMs.n", 1);
    set("timeLeftMs.sum", left);
    set("timeLeftMs.sumSq", left * left);
  }
  return counts;
}
