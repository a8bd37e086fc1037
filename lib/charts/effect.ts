import {
  REMINDER_KEYS,
  type TEffectivenessResponse,
  type TEffectRow,
  type TEstimate,
  type TFatigueRow,
  type TReminderKey,
} from "@/lib/contracts";
import { formatBytes, formatNumber } from "@/lib/format";
import { csvLine } from "@/lib/reviewer/csv";
import type { TrendRow } from "./trends";

/** A rate as the pages write it: `62.5% (5 of 8)` with its interval, or `–` without a denominator. */
export function rateText(estimate: TEstimate, x: number, n: number): string {
  if (estimate.value === null) return "–";
  const interval = estimate.low === null || estimate.high === null ? "" : ` [${pct(estimate.low)}–${pct(estimate.high)}]`;
  return `${pct(estimate.value)}${interval} (${formatNumber(x)} of ${formatNumber(n)})`;
}

/** A difference of rates in percentage points with its interval, or `–`. */
export function differenceText(estimate: TEstimate): string {
  if (estimate.value === null) return "–";
  const pp = (v: number) => `${v > 0 ? "+" : v < 0 ? "−" : "±"}${formatNumber(Math.abs(v) * 100, 1)}`;
  const interval = estimate.low === null || estimate.high === null ? "" : ` [${pp(estimate.low)} to ${pp(estimate.high)}]`;
  return `${pp(estimate.value)} pp${interval}`;
}

/** A rate (0–1) in percent, rounded (not floored like a meter's ratio): interval ends must not move inwards. */
const pct = (v: number) => `${formatNumber(v * 100, 1)}%`;

export interface EffectCharts {
  /** Whether any reminder was delivered or dropped in the window. */
  hasData: boolean;
  /** Per key with reminders: its rows over every context stage, then per context stage. */
  keys: { key: TReminderKey; totals: TEffectRow[]; byContext: TEffectRow[]; days: TrendRow[]; summary: string }[];
  /** Per key with deliveries: its fatigue and per-day repeats and capacity share. */
  fatigue: { row: TFatigueRow; days: TrendRow[]; summary: string }[];
}

/**
 * The delivered vs dropped and fatigue panels' data from the effectiveness answer (contract §10): per
 * key, rows and per-day follow-up rates of delivered and of dropped reminders (percent; null on a day
 * without such reminders), and per-day fatigue (repeats in reminders, share of capacity in percent).
 */
export function effectCharts(data: TEffectivenessResponse): EffectCharts {
  const keys = REMINDER_KEYS.flatMap((key) => {
    const rows = data.rows.filter((r) => r.key === key);
    if (rows.length === 0) return [];
    const totals = rows.filter((r) => r.contextStage === null);
    const delivered = sum(totals.map((r) => r.delivered));
    const deliveredFollowed = sum(totals.map((r) => r.deliveredFollowed));
    const dropped = sum(totals.map((r) => r.dropped));
    const droppedFollowed = sum(totals.map((r) => r.droppedFollowed));
    const days: TrendRow[] = data.days.map((d) => {
      const k = d.keys.find((x) => x.key === key)!;
      return {
        day: d.day,
        delivered: k.delivered === 0 ? null : (k.deliveredFollowed / k.delivered) * 100,
        dropped: k.dropped === 0 ? null : (k.droppedFollowed / k.dropped) * 100,
      };
    });
    const summary =
      `${key}: delivered reminders followed ${share(deliveredFollowed, delivered)}, dropped ones ${share(droppedFollowed, dropped)}, ` +
      `${data.from} to ${data.to} (${data.tz}).`;
    return [{ key, totals, byContext: rows.filter((r) => r.contextStage !== null), days, summary }];
  });
  const fatigue = data.fatigue.map((row) => {
    const days: TrendRow[] = data.days.map((d) => {
      const k = d.keys.find((x) => x.key === row.key)!;
      return { day: d.day, repeats: k.repeats, share: d.capacityBytes === 0 ? null : (k.contextBytes / d.capacityBytes) * 100 };
    });
    const summary =
      `${row.key}: ${formatNumber(row.repeats)} repeats in ${formatNumber(row.deliveries)} deliveries` +
      (row.meanTurnsBetweenRepeats === null ? "" : `, ${formatNumber(row.meanTurnsBetweenRepeats, 1)} turns apart on average`) +
      `; ${formatBytes(row.bytes)} delivered` +
      (row.capacityShare === null ? "" : `, ${formatNumber(row.capacityShare * 100, 2)}% of request capacity`) +
      `; most of the reminder bytes in ${formatNumber(row.dominatedRuns)} of ${formatNumber(row.runsWithReminderBytes)} runs.`;
    return { row, days, summary };
  });
  return { hasData: keys.length > 0, keys, fatigue };
}

function share(x: number, n: number): string {
  return n === 0 ? "– (none)" : `${pct(x / n)} (${formatNumber(x)} of ${formatNumber(n)})`;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

const cell = (v: number | null) => (v === null ? null : v);

/** The delivered vs dropped table as CSV: one line per row of the answer, rates and intervals as fractions. */
export function effectCsv(rows: readonly TEffectRow[]): string {
  const head = csvLine([
    "key",
    "stage",
    "kind",
    "context_stage",
    "delivered",
    "delivered_followed",
    "delivered_rate",
    "delivered_rate_low",
    "delivered_rate_high",
    "dropped",
    "dropped_followed",
    "dropped_rate",
    "dropped_rate_low",
    "dropped_rate_high",
    "difference",
    "difference_low",
    "difference_high",
  ]);
  return (
    head +
    rows
      .map((r) =>
        csvLine([
          r.key,
          r.stage === null ? "all" : r.stage,
          r.kind,
          r.contextStage === null ? "all" : String(r.contextStage),
          r.delivered,
          r.deliveredFollowed,
          cell(r.deliveredRate.value),
          cell(r.deliveredRate.low),
          cell(r.deliveredRate.high),
          r.dropped,
          r.droppedFollowed,
          cell(r.droppedRate.value),
          cell(r.droppedRate.low),
          cell(r.droppedRate.high),
          cell(r.difference.value),
          cell(r.difference.low),
          cell(r.difference.high),
        ]),
      )
      .join("")
  );
}

/** The fatigue table as CSV, each column in its own unit (reminders, turns, bytes, runs). */
export function fatigueCsv(rows: readonly TFatigueRow[]): string {
  return (
    csvLine([
      "key",
      "deliveries",
      "repeats",
      "mean_turns_between_repeats",
      "bytes",
      "context_bytes",
      "capacity_bytes",
      "capacity_share",
      "dominated_runs",
      "runs_with_reminder_bytes",
    ]) +
    rows
      .map((r) =>
        csvLine([
          r.key,
          r.deliveries,
          r.repeats,
          cell(r.meanTurnsBetweenRepeats),
          r.bytes,
          r.contextBytes,
          r.capacityBytes,
          cell(r.capacityShare),
          r.dominatedRuns,
          r.runsWithReminderBytes,
        ]),
      )
      .join("")
  );
}
