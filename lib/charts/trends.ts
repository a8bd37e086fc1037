import { REMINDER_KEYS, type TFindingCode, type TReminderKey, type TTrendsResponse } from "@/lib/contracts";
import { formatNumber, formatPercent } from "@/lib/format";

/** One row per day for recharts: `day` and one value per series (null: nothing to measure that day). */
export type TrendRow = { day: string } & Record<string, number | null | string>;

export interface TrendCharts {
  /** Whether the window has any turn at all (else the page shows its empty state). */
  hasData: boolean;
  /** Drop rate per key per day, in percent of that key's candidates. */
  dropRate: TrendRow[];
  /** Per key: candidates, delivered and dropped reminders per day (reminders). */
  perKey: { key: TReminderKey; rows: TrendRow[]; summary: string }[];
  /** Findings per 1,000 turns, one series per code seen in the window. */
  findings: { codes: TFindingCode[]; rows: TrendRow[] };
  /** Reviewer violations per day (findings). */
  violations: TrendRow[];
  /** Follow-up rate per copy version per day, in percent (series named by version id). */
  followUp: { versions: { id: string; label: string }[]; rows: TrendRow[] };
  summaries: { dropRate: string; findings: string; violations: string; followUp: string };
}

const pct = (n: number | null) => (n === null ? null : n * 100);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The trends page's charts and their text summaries from the API's days (counts of one unit each, rates recomputed over the window). */
export function trendCharts(data: TTrendsResponse): TrendCharts {
  const { days } = data;
  const hasData = days.some((d) => d.turns > 0);
  const keyTotals = REMINDER_KEYS.map((key) => {
    const of = days.map((d) => d.keys.find((k) => k.key === key)!);
    return {
      key,
      candidates: sum(of.map((k) => k.candidates)),
      delivered: sum(of.map((k) => k.delivered)),
      dropped: sum(of.map((k) => k.dropped)),
    };
  });
  const codes = [...new Set(days.flatMap((d) => d.findings.map((f) => f.code)))].sort() as TFindingCode[];
  const turns = sum(days.map((d) => d.turns));
  const violations = sum(days.map((d) => d.reviewerViolations));
  const labels = new Map(data.copyVersions.map((v) => [v.id, v.label]));
  const followIds = [...new Set(days.flatMap((d) => d.followUp.map((f) => f.copyVersion)))].sort();

  const span = `${data.from} to ${data.to} (${data.tz})`;
  const dropText = keyTotals
    .filter((k) => k.candidates > 0)
    .map(
      (k) =>
        `${k.key} ${formatPercent(k.dropped / k.candidates, { digits: 1 })} (${formatNumber(k.dropped)} of ${formatNumber(k.candidates)} reminders)`,
    );
  const followText = followIds.map((id) => {
    const of = days.flatMap((d) => d.followUp.filter((f) => f.copyVersion === id));
    const delivered = sum(of.map((f) => f.delivered));
    const followed = sum(of.map((f) => f.followed));
    return `${labels.get(id) ?? id}: ${delivered ? formatPercent(followed / delivered, { digits: 1 }) : "–"} (${formatNumber(followed)} of ${formatNumber(delivered)} reminders)`;
  });

  return {
    hasData,
    dropRate: days.map((d) => ({ day: d.day, ...Object.fromEntries(d.keys.map((k) => [k.key, pct(k.dropRate)])) })),
    perKey: keyTotals.map((t) => ({
      key: t.key,
      rows: days.map((d) => {
        const k = d.keys.find((x) => x.key === t.key)!;
        return { day: d.day, candidates: k.candidates, delivered: k.delivered, dropped: k.dropped };
      }),
      summary: `${t.key}: ${formatNumber(t.candidates)} candidates, ${formatNumber(t.delivered)} delivered, ${formatNumber(t.dropped)} dropped reminders, ${span}.`,
    })),
    findings: {
      codes,
      rows: days.map((d) => ({
        day: d.day,
        ...Object.fromEntries(codes.map((c) => [c, d.findings.find((f) => f.code === c)?.per1000Turns ?? (d.turns ? 0 : null)])),
      })),
    },
    violations: days.map((d) => ({ day: d.day, violations: d.reviewerViolations })),
    followUp: {
      versions: followIds.map((id) => ({ id, label: labels.get(id) ?? id })),
      rows: days.map((d) => ({ day: d.day, ...Object.fromEntries(d.followUp.map((f) => [f.copyVersion, pct(f.rate)])) })),
    },
    summaries: {
      dropRate: dropText.length ? `Drop rate ${span}: ${dropText.join("; ")}.` : `No reminder candidates ${span}.`,
      findings: codes.length
        ? `Findings per 1,000 turns ${span} over ${formatNumber(turns)} turns: ${codes
            .map((c) => {
              const n = sum(days.map((d) => d.findings.find((f) => f.code === c)?.count ?? 0));
              return `${c} ${formatNumber((n * 1000) / Math.max(turns, 1), 1)} (${formatNumber(n)} findings)`;
            })
            .join("; ")}.`
        : `No findings ${span} over ${formatNumber(turns)} turns.`,
      violations: `${formatNumber(violations)} Reviewer violations ${span}${violations ? `, most on ${[...days].sort((a, b) => b.reviewerViolations - a.reviewerViolations)[0].day}` : ""}.`,
      followUp: followText.length
        ? `Follow-up rate (association, not effect) ${span}: ${followText.join("; ")}.`
        : `No followed-up reminders delivered ${span}.`,
    },
  };
}
