"use client";

import { useMemo, useRef } from "react";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import { ChartFigure } from "@/components/ui/chart-figure";
import type { TCompaction, TContextPartsChart } from "@/lib/contracts";
import { formatBytes, formatPercent, formatTurn } from "@/lib/format";
import {
  compactionMarks,
  describeCompaction,
  PART_LABELS,
  partsSummary,
  stackRows,
  stackSlices,
  type CompactionMark,
  type StackRow,
  type TPartSlice,
} from "@/lib/run-view/context-parts";
import { valueDomain, valueTicks, zoomedValueScale } from "@/lib/run-view/turn-ticks";
import { turnAxisProps, valueAxisProps } from "./chart-axes";
import { CHART_MARGIN } from "./plot-insets";
import { usePlotPointer } from "./plot-pointer";
import type { AxisProps } from "./meter-panels";
import styles from "./meter-chart.module.css";
import runStyles from "./run.module.css";

const HEIGHT = 150;

/** Fill of each slice (globals.css `--part-*`); unattributed is left hollow, with a dashed outline. */
const FILL: Record<TPartSlice, string> = {
  system: "var(--part-system)",
  tools: "var(--part-tools)",
  history: "var(--part-history)",
  retrieved: "var(--part-retrieved)",
  reminders: "var(--part-reminders)",
  other: "var(--part-other)",
  unattributed: "var(--surface)",
};

function Diamond({ cx, cy, filled }: { cx?: number; cy?: number; filled: boolean }) {
  if (cx === undefined || cy === undefined) return null;
  const r = 5;
  return (
    <path
      d={`M${cx},${cy - r}L${cx + r},${cy}L${cx},${cy + r}L${cx - r},${cy}Z`}
      fill={filled ? "var(--chart-compaction)" : "var(--surface)"}
      stroke="var(--chart-compaction)"
      strokeWidth={1.5}
    />
  );
}

/**
 * Contract §11: what filled the final request, turn by turn, stacked in bytes to its required
 * bytes (the context meter's line above), with each compaction's sizes; shares the run's turn axis.
 */
export function ContextPartsChart({
  chart,
  compactions,
  axis,
}: {
  chart: TContextPartsChart;
  compactions: readonly TCompaction[];
  axis: AxisProps;
}) {
  const { domain, ticks, selectedTurn, onSelectTurn, onZoom, zoomed = false } = axis;
  const tooltipTurn = useRef<number | null>(null);
  const { drag, handlers } = usePlotPointer(domain, onSelectTurn, onZoom, () => tooltipTurn.current);
  const slices = useMemo(() => stackSlices(chart.parts, chart.points), [chart]);
  const rows = useMemo(() => stackRows(chart.points, slices), [chart, slices]);
  const marks = useMemo(
    () => compactionMarks(compactions, chart.points).map((m) => ({ ...m, value: m.candidateBytes })),
    [compactions, chart],
  );
  const inView = (turn: number) => turn >= domain.from && turn <= domain.to;
  const shown = zoomed ? rows.filter((r) => inView(r.turn)) : rows;
  const values = [...shown.map((r) => r.total), ...marks.filter((m) => !zoomed || inView(m.turn)).map((m) => m.originalBytes)];
  const zoomedScale = zoomed ? zoomedValueScale(values, 4) : null;
  const yDomain = zoomedScale ? zoomedScale.domain : valueDomain(values, [], 0.12);
  const yTicks = zoomedScale ? zoomedScale.ticks : valueTicks(yDomain[1], 4);

  const renderTooltip = ({ active, payload }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const item = payload[0].payload as StackRow | CompactionMark;
    if ("candidateBytes" in item) {
      return (
        <div className={styles.tooltip}>
          <span>{describeCompaction(item)}</span>
        </div>
      );
    }
    return (
      <div className={styles.tooltip}>
        <strong>
          {formatTurn(item.turn)} · {formatBytes(item.total)}
        </strong>
        {[...slices].reverse().map((slice) => (
          <span key={slice}>
            {PART_LABELS[slice]}: {formatBytes(item[slice] ?? 0)}
            {item.total > 0 ? ` (${formatPercent((item[slice] ?? 0) / item.total)})` : ""}
          </span>
        ))}
      </div>
    );
  };

  return (
    <div className={styles.partsBlock} data-testid="context-parts">
      <h3 className={styles.partsTitle}>
        What filled the request <span className={runStyles.unitTag}>bytes, by part</span>
      </h3>
      <ul className={styles.partsLegend} aria-label="Parts of the request">
        {slices.map((slice) => (
          <li key={slice}>
            <span className={styles.partsSwatch} data-slice={slice} style={{ background: FILL[slice] }} aria-hidden="true" />
            {PART_LABELS[slice]}
          </li>
        ))}
      </ul>
      <ChartFigure
        compact
        caption="What filled the final request, per turn, by part"
        unit="bytes"
        summary={partsSummary(zoomed ? chart.points.filter((p) => inView(p.turn)) : chart.points, slices, chart.turnsWithoutParts)}
        table={{
          columns: [
            { key: "turn", label: "Turn" },
            ...slices.map((slice) => ({ key: slice, label: PART_LABELS[slice], unit: "bytes" })),
            { key: "total", label: "required", unit: "bytes" },
            { key: "compaction", label: "Compaction" },
          ],
          rows: shown.map((row) => ({
            turn: formatTurn(row.turn, { compact: true }),
            ...Object.fromEntries(slices.map((slice) => [slice, formatBytes(row[slice] ?? 0)])),
            total: formatBytes(row.total),
            compaction: marks
              .filter((m) => m.turn === row.turn && m.count === undefined)
              .map(describeCompaction)
              .join("; "),
          })),
        }}
      >
        <div
          className={styles.plot}
          style={{ height: HEIGHT }}
          role="img"
          aria-label="Bytes of the final request per turn, by part"
          {...handlers}
        >
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart
              data={rows}
              margin={CHART_MARGIN}
              syncId="run-turns"
              syncMethod="value"
              accessibilityLayer={false}
              role="presentation"
              onMouseMove={(state) => {
                const label = state.activeLabel;
                tooltipTurn.current = label === undefined || label === null || label === "" ? null : Number(label);
              }}
              onMouseLeave={() => {
                tooltipTurn.current = null;
              }}
            >
              <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
              <XAxis {...turnAxisProps([domain.from, domain.to], ticks)} />
              <YAxis {...valueAxisProps(yDomain, yTicks, "bytes", (v: number) => formatBytes(v, { compact: true }))} />
              <Tooltip content={renderTooltip} isAnimationActive={false} cursor={{ stroke: "var(--border-strong)" }} />
              {slices.map((slice) => (
                <Area
                  key={slice}
                  dataKey={slice}
                  name={PART_LABELS[slice]}
                  stackId="parts"
                  type="linear"
                  fill={FILL[slice]}
                  fillOpacity={slice === "unattributed" ? 1 : 0.85}
                  stroke={slice === "unattributed" ? "var(--chart-threshold)" : FILL[slice]}
                  strokeDasharray={slice === "unattributed" ? "3 3" : undefined}
                  strokeWidth={1}
                  isAnimationActive={false}
                />
              ))}
              {marks.length ? (
                <Scatter
                  name="compactions"
                  data={marks}
                  dataKey="value"
                  shape={(p: unknown) => {
                    const props = p as { cx?: number; cy?: number; payload?: CompactionMark };
                    return <Diamond cx={props.cx} cy={props.cy} filled={props.payload?.outcome === "adopted"} />;
                  }}
                  isAnimationActive={false}
                />
              ) : null}
              {selectedTurn !== null && inView(selectedTurn) ? (
                <ReferenceLine x={selectedTurn} stroke="var(--chart-selected)" strokeWidth={1.5} />
              ) : null}
              {drag ? (
                <ReferenceArea x1={Math.min(drag.a, drag.b)} x2={Math.max(drag.a, drag.b)} fill="var(--accent)" fillOpacity={0.12} />
              ) : null}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      </ChartFigure>
    </div>
  );
}
