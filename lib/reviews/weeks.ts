import { REVIEW_VERDICTS, type TReviewTrends, type TReviewVerdict, type TReviewWeek } from "@/lib/contracts";
import { wilsonInterval } from "@/lib/stats";

/** Verdicts given in one week (its Monday), of one kind, on candidates the rules flagged or not: how many. */
export interface VerdictCount {
  week: string;
  verdict: TReviewVerdict;
  /** The candidate had a Reviewer finding (contract §7) when the verdict was given. */
  flagged: boolean;
  n: number;
}

/** Whether a person's verdict says something went wrong (the rules' counterpart: a finding). */
export function saysWrong(verdict: TReviewVerdict): boolean {
  return verdict !== "justified";
}

/** The Monday of the week `day` (YYYY-MM-DD) is in. */
export function mondayOf(day: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return new Date(ms - weekday * 86_400_000).toISOString().slice(0, 10);
}

type Tally = Omit<TReviewWeek, "week">;

function emptyTally(): Tally {
  return {
    verdicts: { justified: 0, unnecessary: 0, should_dispatch: 0 },
    withFindings: 0,
    table: { bothWrong: 0, personOnly: 0, rulesOnly: 0, neither: 0 },
    agreement: { k: 0, n: 0, rate: null, low: null, high: null },
  };
}

function add(tally: Tally, count: VerdictCount): void {
  tally.verdicts[count.verdict] += count.n;
  if (count.flagged) tally.withFindings += count.n;
  const wrong = saysWrong(count.verdict);
  const cell = wrong ? (count.flagged ? "bothWrong" : "personOnly") : count.flagged ? "rulesOnly" : "neither";
  tally.table[cell] += count.n;
}

function withAgreement(tally: Tally): Tally {
  const k = tally.table.bothWrong + tally.table.neither;
  const n = k + tally.table.personOnly + tally.table.rulesOnly;
  const interval = wilsonInterval(k, n);
  return { ...tally, agreement: { k, n, rate: n === 0 ? null : k / n, low: interval?.low ?? null, high: interval?.high ?? null } };
}

/**
 * The review trends of a window: every week from the one `from` is in to the one `to` is in (weeks
 * without verdicts at zero), each with its verdicts, the 2×2 table of person × rules, and their
 * agreement (both say wrong, or neither does) with its 95% Wilson interval; and the window's total.
 */
export function reviewTrends(window: { tz: string; from: string; to: string }, counts: readonly VerdictCount[]): TReviewTrends {
  const weeks = new Map<string, Tally>();
  for (let week = mondayOf(window.from); week <= window.to; week = new Date(Date.parse(week) + 7 * 86_400_000).toISOString().slice(0, 10)) {
    weeks.set(week, emptyTally());
  }
  const total = emptyTally();
  for (const count of counts) {
    if (!(REVIEW_VERDICTS as readonly string[]).includes(count.verdict)) continue;
    const tally = weeks.get(count.week);
    if (!tally) continue;
    add(tally, count);
    add(total, count);
  }
  return {
    ...window,
    weeks: [...weeks].map(([week, tally]) => ({ week, ...withAgreement(tally) })),
    total: withAgreement(total),
  };
}

/** One bar of the verdicts chart: a week's verdicts by kind. */
export interface VerdictBar {
  week: string;
  justified: number;
  unnecessary: number;
  should_dispatch: number;
}

/** The verdicts chart's bars and its one-line text summary (what a screen reader gets instead of the bars). */
export function verdictChart(trends: TReviewTrends): { bars: VerdictBar[]; summary: string } {
  const bars = trends.weeks.map((w) => ({ week: w.week, ...w.verdicts }));
  const { verdicts, agreement } = trends.total;
  const given = verdicts.justified + verdicts.unnecessary + verdicts.should_dispatch;
  if (given === 0) return { bars, summary: `No verdicts were given from ${trends.from} to ${trends.to}.` };
  const percent = (x: number) => `${(x * 100).toFixed(0)}%`;
  const agree =
    agreement.rate === null
      ? ""
      : ` People and the rules agreed on ${agreement.k} of ${agreement.n} (${percent(agreement.rate)}, 95% interval ${percent(agreement.low!)}–${percent(agreement.high!)}).`;
  return {
    bars,
    summary:
      `${given} ${given === 1 ? "verdict" : "verdicts"} from ${trends.from} to ${trends.to}: ` +
      `${verdicts.justified} justified, ${verdicts.unnecessary} unnecessary, ${verdicts.should_dispatch} should have been dispatched.${agree}`,
  };
}
