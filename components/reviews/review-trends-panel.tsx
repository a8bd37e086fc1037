"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TReviewTrends, TReviewVerdict } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { reviewTrendsQuery } from "@/lib/queries/reviews";
import { verdictChart } from "@/lib/reviews/weeks";
import { Panel } from "@/components/ui/panel";
import { VERDICT_TEXT } from "./verdict";
import styles from "./review-trends.module.css";

/** The bars' colours, one per verdict (the legend and the table name them; the table holds every value). */
const COLOURS: Record<TReviewVerdict, string> = { justified: "#2f7d4f", unnecessary: "#b5523b", should_dispatch: "#8a6d00" };

const percent = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(0)}%`);

/**
 * The trends page's review verdicts per week, beside the Reviewer violations: what people said, and
 * how often they and the rules (a Reviewer finding on the candidate) agreed, with counts and 95%
 * intervals. The window is the page's; its run filters do not apply (a verdict is on a candidate).
 */
export function ReviewTrendsPanel({ window, filtered }: { window: { tz: string; from?: string; to?: string }; filtered: boolean }) {
  const query = useQuery(reviewTrendsQuery(window));
  return (
    <Panel
      id="trend-review-verdicts"
      title="Review verdicts per week"
      meta={`verdicts given, per week from Monday${filtered ? " · all runs: the filters above do not apply" : ""}`}
    >
      {query.isError ? (
        <p role="alert">The review verdicts could not be loaded: {query.error.message}</p>
      ) : !query.data ? (
        <p aria-busy="true">Loading the verdicts…</p>
      ) : (
        <VerdictWeeks data={query.data} />
      )}
    </Panel>
  );
}

function VerdictWeeks({ data }: { data: TReviewTrends }) {
  const chart = verdictChart(data);
  const verdicts = Object.keys(VERDICT_TEXT) as TReviewVerdict[];
  return (
    <div className={styles.body}>
      <div className={styles.plot} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={chart.bars} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="week" />
            <YAxis allowDecimals={false} label={{ value: "verdicts", angle: -90, position: "insideLeft" }} />
            <Tooltip />
            <Legend />
            {verdicts.map((verdict) => (
              <Bar
                key={verdict}
                dataKey={verdict}
                stackId="v"
                name={VERDICT_TEXT[verdict].label}
                fill={COLOURS[verdict]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <p className={styles.summary}>{chart.summary}</p>
      <div className={styles.scroll} role="region" aria-label="Verdicts and agreement per week" tabIndex={0}>
        <table className={styles.table}>
          <caption>
            Per week: the verdicts, and how people and the rules agreed. Agreement: both said something went wrong (a verdict of unnecessary
            or should have been dispatched, and a Reviewer finding), or neither did. It compares two judgements and measures neither&apos;s
            accuracy.
          </caption>
          <thead>
            <tr>
              <th scope="col">Week from</th>
              {verdicts.map((verdict) => (
                <th scope="col" key={verdict}>
                  {VERDICT_TEXT[verdict].label}
                </th>
              ))}
              <th scope="col">On flagged candidates</th>
              <th scope="col">Agreement (95% interval)</th>
            </tr>
          </thead>
          <tbody>
            {[...data.weeks, { week: "Window", ...data.total }].map((week) => (
              <tr key={week.week}>
                <th scope="row">{week.week}</th>
                {verdicts.map((verdict) => (
                  <td key={verdict}>{formatNumber(week.verdicts[verdict])}</td>
                ))}
                <td>{formatNumber(week.withFindings)}</td>
                <td>
                  {week.agreement.n === 0
                    ? "no verdicts"
                    : `${formatNumber(week.agreement.k)} of ${formatNumber(week.agreement.n)}: ${percent(week.agreement.rate)} (${percent(week.agreement.low)}–${percent(week.agreement.high)})`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.note}>
        Reviewer violations per day are in the chart above. <Link href="/reviewer/queue">Open the review queue</Link> to give verdicts.
      </p>
    </div>
  );
}
