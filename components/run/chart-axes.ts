import type { XAxisProps, YAxisProps } from "recharts";
import { formatTurn } from "@/lib/format";
import { Y_AXIS_WIDTH } from "./plot-insets";

/**
 * The props every run-page chart gives its axes (spread into recharts' XAxis and YAxis, which must stay
 * direct children of the chart): the shared turn axis, and a value axis in one unit with its caption.
 */
export function turnAxisProps(domain: readonly [number, number], ticks?: readonly number[], showLabels = true): XAxisProps {
  return {
    dataKey: "turn",
    type: "number",
    domain: [domain[0], domain[1]],
    ticks: ticks ? [...ticks] : undefined,
    allowDataOverflow: true,
    tickFormatter: (t: number) => formatTurn(t, { compact: true }),
    tick: showLabels ? { fontSize: 11, fill: "var(--text-muted)" } : false,
    height: showLabels ? 20 : 2,
    tickLine: false,
    axisLine: { stroke: "var(--border-strong)" },
  };
}

export function valueAxisProps(
  domain: readonly [number, number],
  ticks: readonly number[],
  caption: string,
  tickFormatter: (value: number) => string,
): YAxisProps {
  return {
    type: "number",
    domain: [domain[0], domain[1]],
    width: Y_AXIS_WIDTH,
    ticks: [...ticks],
    interval: 0,
    tickFormatter,
    tick: { fontSize: 11, fill: "var(--text-muted)" },
    tickLine: false,
    axisLine: false,
    label: {
      value: caption,
      angle: -90,
      position: "insideLeft",
      offset: 2,
      style: { fontSize: 11, fill: "var(--text-faint)", textAnchor: "middle" },
    },
  };
}
