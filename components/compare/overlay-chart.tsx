"use client";

import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import { ChartFigure } from "@/components/ui/chart-figure";
import { formatInUnit, formatNumber, formatTurn } from "@/lib/format";
import type { Alignment, Overlay, OverlayRow } from "@/lib/compare-view/overlay";
import { valueDomain, valueTicks } from "@/lib/run-view/turn-ticks";
import { CHART_MARGIN, Y_AXIS_WIDTH } from "@/components/run/plot-insets";
import chartStyles from "@/components/run/meter-chart.module.css";
import styles from "./compare.module.css";

const TITLES: Record<Overlay["meter"], { title: string; unit: string; axis: string }> = {
  requests: { title: "Requests used", unit: "count", axis: "requests" },
  time: { title: "Time elapsed", unit: "minutes", axis: "min" },
  context: { title: "Context: bytes of the final request", unit: "bytes", axis: "bytes" },
  edits: { title: "Edit quota", unit: "edits", axis: "edits" },
};

/**
 * One meter of both runs on one axis, in the meter's own unit: run A solid, run B dashed, each with
 * its own limit and stage lines (the two policies may differ). x is the turn, or the share of each
 * run's turns; `selected` marks the turn both runs are shown at.
 */
export function OverlayChart({
  overlay,
  alignment,
  selected,
  onSelect,
  xDomain,
  children,
}: {
  overlay: Overlay;
  alignment: Alignment;
  /** Where the selected turn sits for each run (x); null when none is selected. */
  selected: { a: number | null; b: number | null } | null;
  onSelect: (row: OverlayRow) => void;
  /** The x axis' extent (turns, or 0–100 by share), shared with the reminder strips under the chart. */
  xDomain: [number, number];
  /** Drawn under the chart, inside its panel (the runs' reminder strips). */
  children?: React.ReactNode;
}) {
  const base = TITLES[overlay.meter];
  const title = overlay.blockId === undefined ? base.title : `${base.title}: block ${overlay.blockId}`;
  const { unit, axis } = base;
  const id = `overlay-${overlay.meter}${overlay.blockId === undefined ? "" : `-${overlay.blockId.replace(/[^A-Za-z0-9_-]/g, "_")}`}`;
  const values = overlay.rows.flatMap((r) => [r.a, r.b].filter((v): v is number => v !== undefined));
  const lines = [
    overlay.limits.a,
    overlay.limits.b,
    ...overlay.thresholds.a.map((t) => t.value),
    ...overlay.thresholds.b.map((t) => t.value),
  ].filter((v): v is number => v !== null);
  const yDomain = valueDomain(values, lines, 0.12);
  const xLabel = (x: number) => (alignment === "turn" ? formatTurn(x, { compact: true }) : `${formatNumber(x, 0)}%`);
  const show = (v: number | undefined) => (v === undefined ? "—" : formatInUnit(overlay.unit, v));
  const renderTooltip = ({ active, payload }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const row = payload[0].payload as OverlayRow;
    return (
      <div className={chartStyles.tooltip}>
        <strong>{alignment === "turn" ? formatTurn(row.x) : `${formatNumber(row.x, 1)}% of the run`}</strong>
        <span>
          A{row.turnA !== undefined && alignment === "share" ? ` (${formatTurn(row.turnA)})` : ""}: {show(row.a)}
        </span>
        <span>
          B{row.turnB !== undefined && alignment === "share" ? ` (${formatTurn(row.turnB)})` : ""}: {show(row.b)}
        </span>
      </div>
    );
  };
  const ref = (value: number | null, run: "a" | "b", label: string, kind: "limit" | "threshold") =>
    value === null ? null : (
      <ReferenceLine
        key={`${run}-${label}-${value}`}
        y={value}
        stroke={kind === "limit" ? "var(--chart-limit)" : run === "a" ? "var(--chart-threshold)" : "var(--chart-series-b)"}
        strokeDasharray={kind === "limit" ? (run === "a" ? undefined : "6 3") : run === "a" ? "2 3" : "1 4"}
        strokeWidth={1}
        ifOverflow="extendDomain"
        label={{
          value: `${run.toUpperCase()} ${label}`,
          position: run === "a" ? "right" : "insideTopLeft",
          fontSize: 10,
          fill: "var(--text-muted)",
        }}
      />
    );

  return (
    <section className={styles.meter} aria-labelledby={id} data-meter={overlay.meter}>
      <h3 id={id} className={styles.meterTitle}>
        {title} <span className={styles.unitTag}>{unit}</span>
      </h3>
      <ChartFigure
        compact
        caption={`${title} of run A and run B, ${alignment === "turn" ? "by turn" : "by share of each run"}`}
        unit={axis}
        summary={`${title} (${unit}) of both runs: run A solid, run B dashed, each with its own limit and stage lines.`}
        table={{
          columns: [
            { key: "x", label: alignment === "turn" ? "Turn" : "Share of the run" },
            { key: "a", label: "Run A", unit: axis },
            { key: "b", label: "Run B", unit: axis },
          ],
          rows: overlay.rows.map((r) => ({ x: xLabel(r.x), a: show(r.a), b: show(r.b) })),
        }}
      >
        <div
          className={styles.plot}
          role="img"
          aria-label={`${title} per ${alignment === "turn" ? "turn" : "share of the run"}, run A and run B`}
        >
          <ResponsiveContainer width="100%" height="100%">
            <LineChart
              data={overlay.rows}
              margin={CHART_MARGIN}
              accessibilityLayer={false}
              role="presentation"
              onClick={(state) => {
                const index = state?.activeTooltipIndex;
                if (index !== undefined && index !== null) onSelect(overlay.rows[Number(index)]);
              }}
            >
              <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
              <XAxis
                dataKey="x"
                type="number"
                domain={xDomain}
                allowDataOverflow
                tickFormatter={xLabel}
                tick={{ fontSize: 11, fill: "var(--text-muted)" }}
                tickLine={false}
                axisLine={{ stroke: "var(--border-strong)" }}
                height={20}
              />
              <YAxis
                type="number"
                domain={yDomain}
                ticks={valueTicks(yDomain[1], 4)}
                width={Y_AXIS_WIDTH}
                tickFormatter={(v: number) => formatInUnit(overlay.unit, v, { compact: true })}
                tick={{ fontSize: 11, fill: "var(--text-muted)" }}
                tickLine={false}
                axisLine={false}
                label={{
                  value: axis,
                  angle: -90,
                  position: "insideLeft",
                  offset: 2,
                  style: { fontSize: 11, fill: "var(--text-faint)", textAnchor: "middle" },
                }}
              />
              {ref(overlay.limits.a, "a", "limit", "limit")}
              {ref(overlay.limits.b, "b", "limit", "limit")}
              {overlay.thresholds.a.map((t) => ref(t.value, "a", `s${t.stage}`, "threshold"))}
              {overlay.thresholds.b.map((t) => ref(t.value, "b", `s${t.stage}`, "threshold"))}
              <Tooltip content={renderTooltip} isAnimationActive={false} cursor={{ stroke: "var(--border-strong)" }} />
              <Line
                dataKey="a"
                name="run A"
                stroke="var(--chart-series)"
                strokeWidth={1.6}
                dot={false}
                connectNulls
                isAnimationActive={false}
              />
              <Line
                dataKey="b"
                name="run B"
                stroke="var(--chart-series-b)"
                strokeWidth={1.6}
                strokeDasharray="5 3"
                dot={false}
                connectNulls
                isAnimationActive={false}
              />
              {selected?.a !== null && selected?.a !== undefined ? (
                <ReferenceLine x={selected.a} stroke="var(--chart-selected)" strokeWidth={1.5} />
              ) : null}
              {selected?.b !== null && selected?.b !== undefined && selected.b !== selected.a ? (
                <ReferenceLine x={selected.b} stroke="var(--chart-selected)" strokeDasharray="4 3" strokeWidth={1.5} />
              ) : null}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </ChartFigure>
      {children}
    </section>
  );
}
