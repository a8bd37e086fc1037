/** Shared helpers for the bench sections: timing, medians, targets and plain-text tables. */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const exposedGc = runInNewContext("gc") as (() => void) | undefined;

/** A full garbage collection, so that one measurement does not pay for the garbage of another. */
export function collectGarbage(): void {
  exposedGc?.();
}

export interface BenchContext {
  /** How many timed repetitions per measurement (the median is reported). */
  repeats: number;
  /** A progress line on stderr (overwritten in place). */
  progress(message: string): void;
  /** A result line on stdout. */
  print(line?: string): void;
}

export interface BenchSection {
  name: string;
  description: string;
  /** Parts that `--only NAME-PART` selects one by one (`--only NAME` runs them all). */
  parts?: readonly string[];
  /** `parts`: the selected parts, or undefined for all of them. */
  run(ctx: BenchContext, parts?: readonly string[]): Promise<void> | void;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The p-th percentile (0 < p <= 100) by the nearest-rank method: the smallest value with at least
 * p% of the values at or below it, so it is always one of the measured values (p95 of 20 samples is
 * the 19th smallest).
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("percentile of no values");
  if (!(p > 0 && p <= 100)) throw new Error(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

/**
 * Milliseconds taken by `fn` (high resolution). No forced GC here: a full collection between
 * repetitions throws away V8's optimized code for short-lived object shapes, so every repetition
 * would measure cold code. Collect once before a series instead.
 */
export function timeMs(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** "PASS" when `value <= target`, else "MISS". Timing never fails the bench. */
export function verdict(value: number, target: number): string {
  return value <= target ? "PASS" : "MISS";
}

/**
 * One target on one line, e.g. "target: /api/v1/health p95 during the replay = 12.3 ms (≤ 200 ms) PASS":
 * `atMost` for a ceiling (a latency), `atLeast` for a floor (a throughput).
 */
export function targetLine(what: string, value: number, unit: string, target: { atMost: number } | { atLeast: number }): string {
  const [sign, bound, pass] =
    "atMost" in target ? ["≤", target.atMost, value <= target.atMost] : ["≥", target.atLeast, value >= target.atLeast];
  const number = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });
  return `target: ${what} = ${number(value)} ${unit} (${sign} ${number(bound)} ${unit}) ${pass ? "PASS" : "MISS"}`;
}

/** A GitHub-flavoured markdown table (numbers right-aligned; "—" is no value), ready to paste into the README. */
export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const numeric = headers.map(
    (_, c) => rows.some((r) => r[c] !== "—") && rows.every((r) => r[c] === "—" || /^[-+]?[\d.,]+(\s|$)/.test(r[c])),
  );
  const escape = (text: string) => text.replace(/\|/g, "\\|");
  const line = (cells: readonly string[]) => `| ${cells.map(escape).join(" | ")} |`;
  return [line(headers), `|${numeric.map((n) => (n ? "---:" : "---")).join("|")}|`, ...rows.map(line)].join("\n");
}

/** A table with right-aligned columns (left-aligned for text that is not a number). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const numeric = headers.map((_, c) => rows.every((r) => /^[-+]?[\d.,]+(\s|$)/.test(r[c])));
  const cell = (text: string, c: number) => (numeric[c] ? text.padStart(widths[c]) : text.padEnd(widths[c]));
  const line = (cells: readonly string[]) => cells.map(cell).join("  ").trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString("en-US"),
  ms: (n: number) => n.toFixed(1),
  mb: (bytes: number) => (bytes / 1e6).toFixed(2),
  ratio: (n: number) => n.toFixed(2),
};

/**
 * A bench server's port: `base` (inside the bench's range, 3300–3399) plus `CUESCOPE_BENCH_PORT_OFFSET`
 * (default 0), so two benches can run side by side on one machine (give each its own offset).
 */
export function benchPort(base: number): number {
  const offset = Number(process.env.CUESCOPE_BENCH_PORT_OFFSET ?? 0);
  if (!Number.isInteger(offset) || offset < 0 || offset > 1000)
    throw new Error(
      `CUESCOPE_BENCH_PORT_OFFSET must be an integer from 0 to 1000, not ${JSON.stringify(process.env.CUESCOPE_BENCH_PORT_OFFSET)}`,
    );
  return base + offset;
}
