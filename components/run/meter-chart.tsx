"use client";

import { useRef } from "react";
import { ChartFigure } from "@/components/ui/chart-figure";
import { meterSummary } from "@/lib/run-view/meter-summary";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import type { TCompaction, TMeterPoint, TMeterUnit } from "@/lib/contracts";
import { formatBytes, formatCount, formatInUnit, formatTurn, formatTurnRange } from "@/lib/format";
import { turnAxisProps, valueAxisProps } from "./chart-axes";
import { CHART_MARGIN } from "./plot-insets";
import { usePlotPointer } from "./plot-pointer";
import { valueDomain, valueTicks, zoomedValueScale } from "@/lib/run-view/turn-ticks";
import type { TurnWindow } from "@/lib/run-view/turn-window";
import type { ProjectedPoint } from "@/lib/run-view/projection-path";
import styles from "./meter-chart.module.css";

/** A horizontal line in the chart's unit: a limit (solid), the usable line, or a stage threshold (dotted). */
export interface ValueLine {
  value: number;
  label: string;
  kind: "limit" | "usable" | "threshold";
}

export interface MeterChartProps {
  unit: TMeterUnit;
  /** The value axis' caption: the unit in words ("requests", "min", "bytes", "edits"). */
  axisLabel: string;
  /** What the line is ("requests used", "bytes of the final request"). */
  seriesName: string;
  points: readonly TMeterPoint[];
  lines: readonly ValueLine[];
  compactions?: readonly TCompaction[];
  domain: TurnWindow;
  ticks: readonly number[];
  height: number;
  selectedTurn: number | null;
  onSelectTurn: (turn: number) => void;
  onZoom: (a: number, b: number) => void;
  /** A zoomed window: the value axis fits the window's own values (lines outside it are left out). */
  zoomed?: boolean;
  /** A live run's projection at its recent pace (lib/run-view/projection-path.ts), drawn past its last turn. */
  projected?: readonly ProjectedPoint[];
  /** Draw the turn axis' labels (the last chart of a stack shows them; the others only share the grid). */
  showTurnLabels?: boolean;
  ariaLabel: string;
}

const LINE_STYLE: Record<ValueLine["kind"], { stroke: string; dash?: string; width: number }> = {
  limit: { stroke: "var(--chart-limit)", width: 1.25 },
  usable: { stroke: "var(--chart-limit)", dash: "6 3", width: 1.25 },
  threshold: { stroke: "var(--chart-threshold)", dash: "2 3", width: 1 },
};

type CompactionPoint = TCompaction & { value: number };

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

/** One meter over the shared turn axis, in its own unit; draws only what the timeline gives it. */
export function MeterChart(props: MeterChartProps) {
  const {
    unit,
    axisLabel,
    seriesName,
    points,
    lines,
    compactions = [],
    domain,
    ticks,
    height,
    selectedTurn,
    onSelectTurn,
    onZoom,
    showTurnLabels = true,
    zoomed = false,
    projected = [],
    ariaLabel,
  } = props;
  const ahead = projected.length > 1 ? { from: projected[0].turn, to: projected[projected.length - 1].turn } : null;
  // The turn a click selects is the one the tooltip shows (the nearest drawn point, which on a
  // thinned series is not always the turn under the pointer): they agree exactly.
  const tooltipTurn = useRef<number | null>(null);
  const { drag, handlers } = usePlotPointer(domain, onSelectTurn, onZoom, () => tooltipTurn.current);
  // The points in view: the zoomed window's (all at whole-run zoom), for the axis, the summary and the table.
  const inView = (turn: number) => turn >= domain.from && turn <= domain.to;
  const shown = zoomed ? points.filter((p) => inView(p.turn)) : points;
  const values = [...shown.map((p) => p.value), ...compactions.filter((c) => !zoomed || inView(c.turn)).map((c) => c.candidateBytes)];
  const zoomedScale = zoomed ? zoomedValueScale(values, height < 100 ? 2 : 4) : null;
  const yDomain = zoomedScale
    ? zoomedScale.domain
    : valueDomain(
        values,
        lines.map((l) => l.value),
        0.12,
      );
  const adopted: CompactionPoint[] = compactions.filter((c) => c.outcome === "adopted").map((c) => ({ ...c, value: c.candidateBytes }));
  const rolledBack: CompactionPoint[] = compactions
    .filter((c) => c.outcome === "rolled_back")
    .map((c) => ({ ...c, value: c.candidateBytes }));
  const yTicks = zoomedScale ? zoomedScale.ticks : valueTicks(yDomain[1], height < 100 ? 2 : 4);
  const tick = (v: number) => formatInUnit(unit, v, { compact: true });

  const renderTooltip = ({ active, payload }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const item = payload[0].payload as TMeterPoint | CompactionPoint | ProjectedPoint;
    if ("band" in item) {
      return (
        <div className={styles.tooltip}>
          <strong>{formatTurn(item.turn)}</strong>
          <span>
            at the recent pace: {item.projected === null ? "past the limit" : formatInUnit(unit, item.projected)} · 95% interval{" "}
            {formatInUnit(unit, item.band[0])}–{formatInUnit(unit, item.band[1])}
          </span>
          <span className={styles.tooltipStage}>projected, not recorded</span>
        </div>
      );
    }
    if ("candidateBytes" in item && item.count !== undefined) {
      return (
        <div className={styles.tooltip}>
          <strong>{formatTurnRange(item.turn, item.toTurn ?? item.turn)}</strong>
          <span>
            {formatCount(item.count, "compaction")} {item.outcome === "adopted" ? "adopted" : "rolled back"}: candidates down to{" "}
            {formatBytes(item.candidateBytes)} (from up to {formatBytes(item.originalBytes)}) · zoom in for each
          </span>
        </div>
      );
    }
    if ("candidateBytes" in item) {
      return (
        <div className={styles.tooltip}>
          <strong>{formatTurn(item.turn)}</strong>
          <span>
            compaction {item.outcome === "adopted" ? "adopted" : "rolled back"}: candidate {formatBytes(item.candidateBytes)} (from{" "}
            {formatBytes(item.originalBytes)})
          </span>
        </div>
      );
    }
    return (
      <div className={styles.tooltip}>
        <strong>{formatTurn(item.turn)}</strong>
        <span>
          {seriesName}: {formatInUnit(unit, item.value)}
        </span>
        <span className={styles.tooltipStage}>stage {item.stage}</span>
      </div>
    );
  };

  return (
    <ChartFigure
      compact
      drawingIsText
      caption={`${ariaLabel}`}
      unit={axisLabel}
      summary={meterSummary(seriesName, unit, shown)}
      table={{
        columns: [
          { key: "turn", label: "Turn" },
          { key: "value", label: seriesName, unit: axisLabel },
          { key: "stage", label: "Stage" },
        ],
        rows: shown.map((p) => ({
          turn: formatTurn(p.turn, { compact: true }),
          value: formatInUnit(unit, p.value),
          stage: String(p.stage),
        })),
      }}
    >
      <div className={styles.plot} style={{ height }} role="img" aria-label={ariaLabel} {...handlers}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={points as TMeterPoint[]}
            margin={showTurnLabels ? CHART_MARGIN : { ...CHART_MARGIN, bottom: 5 }}
            syncId="run-turns"
            syncMethod="value"
            // The chart is an image with its own label (the div above); its SVG is not a stop of its own.
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
            <XAxis {...turnAxisProps([domain.from, domain.to], ticks, showTurnLabels)} />
            <YAxis {...valueAxisProps(yDomain, yTicks, axisLabel, tick)} />
            {lines.map((line) => (
              <ReferenceLine
                key={`${line.kind}-${line.value}-${line.label}`}
                y={line.value}
                stroke={LINE_STYLE[line.kind].stroke}
                strokeDasharray={LINE_STYLE[line.kind].dash}
                strokeWidth={LINE_STYLE[line.kind].width}
                ifOverflow={zoomed ? "hidden" : "extendDomain"}
                label={
                  line.kind === "threshold"
                    ? { value: line.label, position: "right", fontSize: 10, fill: "var(--text-faint)" }
                    : {
                        value: line.label,
                        position: line.kind === "usable" ? "insideTopLeft" : "insideBottomLeft",
                        fontSize: 10,
                        fill: "var(--text-muted)",
                      }
                }
              />
            ))}
            <Tooltip content={renderTooltip} isAnimationActive={false} cursor={{ stroke: "var(--border-strong)" }} />
            <Line
              dataKey="value"
              name={seriesName}
              type={unit === "edits" ? "stepAfter" : "linear"}
              stroke="var(--chart-series)"
              strokeWidth={1.6}
              dot={points.length <= 2 ? { r: 2.5, fill: "var(--chart-series)", strokeWidth: 0 } : false}
              isAnimationActive={false}
            />
            {ahead ? (
              <ReferenceArea
                x1={ahead.from}
                x2={ahead.to}
                fill="var(--chart-grid)"
                fillOpacity={0.6}
                ifOverflow="hidden"
                label={{ value: "projected", position: "insideTopRight", fontSize: 10, fill: "var(--text-muted)" }}
              />
            ) : null}
            {ahead ? (
              <Area
                data={projected as ProjectedPoint[]}
                dataKey="band"
                name="projection's 95% interval"
                stroke="none"
                fill="var(--chart-series)"
                fillOpacity={0.18}
                isAnimationActive={false}
                activeDot={false}
              />
            ) : null}
            {ahead ? (
              <Line
                data={projected as ProjectedPoint[]}
                dataKey="projected"
                name="projected at the recent pace"
                stroke="var(--chart-series)"
                strokeWidth={1.4}
                strokeDasharray="5 4"
                dot={false}
                activeDot={false}
                connectNulls={false}
                isAnimationActive={false}
              />
            ) : null}
            {adopted.length ? (
              <Scatter
                name="compaction adopted"
                data={adopted}
                dataKey="value"
                shape={(p: unknown) => <Diamond {...(p as { cx?: number; cy?: number })} filled />}
                isAnimationActive={false}
              />
            ) : null}
            {rolledBack.length ? (
              <Scatter
                name="compaction rolled back"
                data={rolledBack}
                dataKey="value"
                shape={(p: unknown) => <Diamond {...(p as { cx?: number; cy?: number })} filled={false} />}
                isAnimationActive={false}
              />
            ) : null}
            {selectedTurn !== null && selectedTurn >= domain.from && selectedTurn <= domain.to ? (
              <ReferenceLine x={selectedTurn} stroke="var(--chart-selected)" strokeWidth={1.5} />
            ) : null}
            {drag ? (
              <ReferenceArea x1={Math.min(drag.a, drag.b)} x2={Math.max(drag.a, drag.b)} fill="var(--accent)" fillOpacity={0.12} />
            ) : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </ChartFigure>
  );
}
