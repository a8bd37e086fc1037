import { formatNumber } from "./number";

/**
 * How long one model request took (an OpenTelemetry span's duration), not the time meter (which is
 * always in minutes, see ./time.ts): "320 ms" under a second, else seconds with one decimal, "1.5 s".
 */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${formatNumber(ms)} ms` : `${formatNumber(ms / 1000, 1)} s`;
}
