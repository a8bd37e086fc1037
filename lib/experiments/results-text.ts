import type { TEstimate, TExperimentResults, TMeasure } from "@/lib/contracts";
import { formatMs, formatNumber } from "@/lib/format";
import { csvLine } from "@/lib/reviewer/csv";

/** A measure that is a proportion (shown in percent, differences in percentage points). */
function isRate(kind: TMeasure["kind"], unit?: string): boolean {
  return kind === "share" || (kind === "ratio" && unit !== undefined && / reminders$/.test(unit));
}

const percent = (v: number) => `${formatNumber(v * 100, 1)}%`;

/** A value in the measure's own unit: percent for rates, minutes for ms, plain numbers otherwise. */
function valueText(m: Pick<TMeasure, "kind" | "unit">, v: number): string {
  if (isRate(m.kind, m.unit)) return percent(v);
  if (m.unit === "ms") return formatMs(v);
  if (m.unit === "requests") return `${formatNumber(v, 1)} requests`;
  return formatNumber(v, 2);
}

/**
 * A measure's estimate as the results table writes it: the value in its unit, the 95% interval, and
 * what it counts (`62.5% [41–84%] (25 of 40)`), or `–` without a denominator.
 */
export function estimateText(m: TMeasure): string {
  if (m.estimate.value === null) return m.runs === 0 ? "– (no runs)" : "– (none)";
  const interval =
    m.estimate.low === null || m.estimate.high === null ? "" : ` [${valueText(m, m.estimate.low)} to ${valueText(m, m.estimate.high)}]`;
  const counts =
    m.kind === "mean"
      ? ` (${formatNumber(m.runs)} runs)`
      : m.kind === "share"
        ? ` (${formatNumber(m.numerator)} of ${formatNumber(m.runs)} runs)`
        : ` (${formatNumber(m.numerator, 2)} / ${formatNumber(m.denominator, 2)}, ${formatNumber(m.runs)} runs)`;
  return `${valueText(m, m.estimate.value)}${interval}${counts}`;
}

/** A difference from the control: percentage points for rates, the unit's own otherwise, signed, with its interval. */
export function measureDifferenceText(kind: TMeasure["kind"], d: TEstimate, unit?: string): string {
  if (d.value === null) return "–";
  const rate = isRate(kind, unit ?? (kind === "ratio" ? " reminders" : undefined));
  const signed = (v: number) => {
    const sign = v > 0 ? "+" : v < 0 ? "−" : "±";
    if (rate) return `${sign}${formatNumber(Math.abs(v) * 100, 1)}`;
    if (unit === "ms") return `${sign}${formatMs(Math.abs(v))}`;
    return `${sign}${formatNumber(Math.abs(v), 2)}`;
  };
  const interval = d.low === null || d.high === null ? "" : ` [${signed(d.low)} to ${signed(d.high)}]`;
  return `${signed(d.value)}${rate ? " pp" : ""}${interval}`;
}

/** The results as CSV: one line per arm and measure, values as numbers (rates as fractions). */
export function armsCsv(results: TExperimentResults): string {
  const head = csvLine([
    "arm",
    "runs",
    "planned_runs",
    "measure",
    "unit",
    "kind",
    "value",
    "low",
    "high",
    "numerator",
    "denominator",
    "measure_runs",
    "vs_control",
    "vs_control_low",
    "vs_control_high",
    "horizon_reached",
  ]);
  const lines = results.arms.flatMap((arm) =>
    arm.measures.map((m) =>
      csvLine([
        arm.name,
        arm.runs,
        arm.plannedRuns,
        m.id,
        m.unit,
        m.kind,
        m.estimate.value,
        m.estimate.low,
        m.estimate.high,
        m.numerator,
        m.denominator,
        m.runs,
        m.vsControl?.value ?? null,
        m.vsControl?.low ?? null,
        m.vsControl?.high ?? null,
        results.horizon.reached ? "yes" : "no",
      ]),
    ),
  );
  return head + lines.join("");
}
