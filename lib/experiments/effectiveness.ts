import {
  REMINDER_KEYS,
  type TEffectivenessDay,
  type TEffectRow,
  type TEstimate,
  type TFatigueRow,
  type TReminderKey,
} from "@/lib/contracts";
import { EVERY_CHECKPOINT } from "@/lib/derived/effectiveness/effectiveness";
import { newcombeDifference, wilsonInterval } from "@/lib/stats";

/** One summed count of a day: a count key of the trend buckets (lib/trends/buckets.ts) and its sum. */
export interface DayCount {
  day: string;
  key: string;
  n: number;
}

const KIND: Record<TReminderKey, TEffectRow["kind"]> = {
  requests: "notice",
  time: "notice",
  context: "notice",
  edits: "state",
  review: "suggestion",
};

const EFFECT_COUNTS = ["delivered", "deliveredFollowed", "dropped", "droppedFollowed"] as const;
type EffectCount = (typeof EFFECT_COUNTS)[number];
type EffectCounts = Record<EffectCount, number>;

const isKey = (k: string): k is TReminderKey => (REMINDER_KEYS as readonly string[]).includes(k);

/**
 * Parses `effect.<key>.<stage>.<ctx>.<count>` (contract §10; ctx an integer or `none`); null for any
 * other count key. A `review` count's stage is null: every checkpoint together (EVERY_CHECKPOINT;
 * counts stored before derived version 6 name each checkpoint, and are taken together the same way).
 */
export function parseEffectKey(
  name: string,
): { key: TReminderKey; stage: number | null; context: number | "none"; count: EffectCount } | null {
  const parts = name.split(".");
  if (parts.length !== 5 || parts[0] !== "effect" || !isKey(parts[1])) return null;
  const key = parts[1];
  const stage = parts[2] === EVERY_CHECKPOINT ? null : Number(parts[2]);
  const context = parts[3] === "none" ? "none" : Number(parts[3]);
  const count = parts[4] as EffectCount;
  if (stage === null ? key !== "review" : !Number.isInteger(stage)) return null;
  if ((context !== "none" && !Number.isInteger(context)) || !EFFECT_COUNTS.includes(count)) return null;
  return { key, stage: key === "review" ? null : stage, context, count };
}

const rate = (x: number, n: number): TEstimate => {
  const w = wilsonInterval(x, n);
  return w ? { value: x / n, low: w.low, high: w.high } : { value: null, low: null, high: null };
};

function effectRow(key: TReminderKey, stage: number | null, contextStage: TEffectRow["contextStage"], c: EffectCounts): TEffectRow {
  const d = newcombeDifference(c.deliveredFollowed, c.delivered, c.droppedFollowed, c.dropped);
  return {
    key,
    stage,
    kind: KIND[key],
    contextStage,
    ...c,
    deliveredRate: rate(c.deliveredFollowed, c.delivered),
    droppedRate: rate(c.droppedFollowed, c.dropped),
    difference: d ? { value: d.difference, low: d.low, high: d.high } : { value: null, low: null, high: null },
  };
}

const zero = (): EffectCounts => ({ delivered: 0, deliveredFollowed: 0, dropped: 0, droppedFollowed: 0 });

/**
 * Delivered vs. dropped rows from the window's summed counts (contract §10): per key, stage (for
 * `review`, every checkpoint together: stage null) and kind,
 * every context stage together (contextStage null) and then each context stage (ascending, `none`
 * last); rates with Wilson intervals, the difference with Newcombe's. Rows in presentation order (R4).
 */
export function effectRows(counts: readonly DayCount[]): TEffectRow[] {
  const groups = new Map<
    string,
    { key: TReminderKey; stage: number | null; total: EffectCounts; byContext: Map<number | "none", EffectCounts> }
  >();
  for (const { key: name, n } of counts) {
    const parsed = parseEffectKey(name);
    if (!parsed) continue;
    const id = `${parsed.key}.${parsed.stage}`;
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { key: parsed.key, stage: parsed.stage, total: zero(), byContext: new Map() }));
    group.total[parsed.count] += n;
    let c = group.byContext.get(parsed.context);
    if (!c) group.byContext.set(parsed.context, (c = zero()));
    c[parsed.count] += n;
  }
  const order = (k: TReminderKey) => REMINDER_KEYS.indexOf(k);
  const contextOrder = (c: number | "none") => (c === "none" ? Number.POSITIVE_INFINITY : c);
  return [...groups.values()]
    .sort((a, b) => order(a.key) - order(b.key) || (a.stage ?? 0) - (b.stage ?? 0))
    .flatMap((g) => [
      effectRow(g.key, g.stage, null, g.total),
      ...[...g.byContext]
        .sort(([a], [b]) => contextOrder(a) - contextOrder(b))
        .map(([context, c]) => effectRow(g.key, g.stage, context, c)),
    ]);
}

/** Reminder fatigue per key from the window's summed counts (contract §10); a key without deliveries is left out. */
export function fatigueRows(counts: readonly DayCount[]): TFatigueRow[] {
  const sum = new Map<string, number>();
  for (const { key, n } of counts) sum.set(key, (sum.get(key) ?? 0) + n);
  const get = (k: string) => sum.get(k) ?? 0;
  const capacityBytes = get("fatigue.capacityBytes");
  const runsWithReminderBytes = get("fatigue.runsWithReminderBytes");
  return REMINDER_KEYS.filter((key) => get(`reminders.${key}.delivered`) > 0).map((key) => {
    const repeats = get(`fatigue.${key}.repeats`);
    const contextBytes = get(`fatigue.${key}.contextBytes`);
    return {
      key,
      deliveries: get(`reminders.${key}.delivered`),
      repeats,
      meanTurnsBetweenRepeats: repeats === 0 ? null : get(`fatigue.${key}.repeatGapTurns`) / repeats,
      bytes: get(`fatigue.${key}.bytes`),
      contextBytes,
      capacityBytes,
      capacityShare: capacityBytes === 0 ? null : contextBytes / capacityBytes,
      dominatedRuns: get(`fatigue.${key}.dominatedRuns`),
      runsWithReminderBytes,
    };
  });
}

/** Each day of the window (every day, days without counts at zero) with per-key totals for the charts over days. */
export function effectivenessDays(days: readonly string[], counts: readonly DayCount[]): TEffectivenessDay[] {
  const byDay = new Map<string, Map<string, number>>();
  for (const { day, key, n } of counts) {
    let m = byDay.get(day);
    if (!m) byDay.set(day, (m = new Map()));
    const parsed = parseEffectKey(key);
    const name = parsed ? `effect.${parsed.key}.${parsed.count}` : key;
    m.set(name, (m.get(name) ?? 0) + n);
  }
  return days.map((day) => {
    const m = byDay.get(day) ?? new Map<string, number>();
    const get = (k: string) => m.get(k) ?? 0;
    return {
      day,
      capacityBytes: get("fatigue.capacityBytes"),
      keys: REMINDER_KEYS.map((key) => ({
        key,
        delivered: get(`effect.${key}.delivered`),
        deliveredFollowed: get(`effect.${key}.deliveredFollowed`),
        dropped: get(`effect.${key}.dropped`),
        droppedFollowed: get(`effect.${key}.droppedFollowed`),
        deliveries: get(`reminders.${key}.delivered`),
        repeats: get(`fatigue.${key}.repeats`),
        bytes: get(`fatigue.${key}.bytes`),
        contextBytes: get(`fatigue.${key}.contextBytes`),
      })),
    };
  });
}
