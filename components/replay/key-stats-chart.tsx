"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TReplayResult } from "@/lib/contracts";
import { formatNumber } from "@/lib/format";
import { ChartFigure } from "@/components/ui/chart-figure";
import styles from "./replay.module.css";

type Measure = "delivered" | "dropped";

const TITLES: Record<Measure, string> = { delivered: "Delivered reminders", dropped: "Dropped reminders (capacity)" };

/** One measure per key, baseline next to what-if; the y axis counts reminders. */
export function KeyStatsChart({ keys, measure }: { keys: TReplayResult["keys"]; measure: Measure }) {
  const data = keys.map(({ key, baseline, whatIf }) => ({ key, baseline: baseline[measure], whatIf: whatIf[measure] }));
  const summary = `Baseline → what-if, per key: ${data.map((d) => `${d.key} ${formatNumber(d.baseline)} → ${formatNumber(d.whatIf)}`).join(", ")}.`;
  return (
    <ChartFigure
      className={styles.chart}
      caption={`${TITLES[measure]} per key`}
      unit="reminders"
      summary={summary}
      table={{
        columns: [
          { key: "key", label: "Key" },
          { key: "baseline", label: "Baseline", unit: "reminders" },
          { key: "whatIf", label: "What-if", unit: "reminders" },
        ],
        rows: data.map((d) => ({ key: d.key, baseline: formatNumber(d.baseline), whatIf: formatNumber(d.whatIf) })),
      }}
    >
      <div className={styles.chartBox}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barGap={2} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis dataKey="key" tickLine={false} stroke="var(--text-faint)" fontSize={12} />
            <YAxis
              allowDecimals={false}
              width={48}
              tickLine={false}
              stroke="var(--text-faint)"
              fontSize={12}
              tickFormatter={(v: number) => formatNumber(v)}
            />
            <Tooltip formatter={(value) => `${formatNumber(Number(value))} reminders`} cursor={{ fill: "var(--surface-2)" }} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="baseline" name="Baseline" fill="var(--text-faint)" isAnimationActive={false} />
            <Bar
              dataKey="whatIf"
              name="What-if"
              fill={measure === "dropped" ? "var(--st-dropped)" : "var(--st-delivered)"}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </ChartFigure>
  );
}
