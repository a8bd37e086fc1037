import { formatRequests } from "./requests";
import { formatMs } from "./time";

type RequestsMeter = { used: number; usable: number; reserve: number };

/** The two parts of a requests usage, for layouts that set the reserve apart: "48/54" and "(+6 reserve)". */
export function requestsUsageParts(meter: RequestsMeter): { used: string; reserve: string | null } {
  return {
    used: `${formatRequests(meter.used, { compact: true })}/${formatRequests(meter.usable, { compact: true })}`,
    reserve: meter.reserve > 0 ? `(+${formatRequests(meter.reserve, { compact: true })} reserve)` : null,
  };
}

/**
 * Requests used of usable, with the delivery reserve held back, all in requests:
 * `formatRequestsUsage({ used: 48, usable: 54, reserve: 6 })` → "48/54 (+6 reserve)".
 */
export function formatRequestsUsage(meter: RequestsMeter): string {
  const { used, reserve } = requestsUsageParts(meter);
  return reserve ? `${used} ${reserve}` : used;
}

/** Time used of the limit, in minutes: `formatTimeUsage(1_860_000, 3_600_000)` → "31/60 min". */
export function formatTimeUsage(elapsedMs: number, limitMs: number): string {
  return `${formatMs(elapsedMs, { compact: true })}/${formatMs(limitMs)}`;
}
