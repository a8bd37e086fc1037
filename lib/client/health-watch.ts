/**
 * Watches a server's `GET /api/v1/health` while a load runs: asks once every `intervalMs` and keeps
 * the worst event-loop lag the server reported (its `eventLoop.worstLagMs`, the worst of its recent
 * window), the slowest answer and the statuses. `npm run test:load` fails when the lag went over
 * MAX_EVENT_LOOP_LAG_MS: a stall that long delays every request of every project.
 */
export const MAX_EVENT_LOOP_LAG_MS = 500;

export interface HealthWatch {
  /** Health answers by status; "network" for no answer. */
  statuses: Record<string, number>;
  /** The worst `eventLoop.worstLagMs` any answer reported; null when no answer carried one. */
  worstLagMs: number | null;
  /** The slowest health answer (ms). */
  maxLatencyMs: number;
}

/**
 * Waits until the server's reported worst lag is at most `limitMs` (a server just started has
 * stalled its loop loading itself — opening and migrating the database, loading its code — and
 * reports that stall for its whole window), asking every `intervalMs`, at most `maxWaitMs`.
 * Returns the lag last reported (null: not reported), so a load measures only its own stalls.
 */
export async function waitForQuietLoop(
  url: string,
  limitMs = MAX_EVENT_LOOP_LAG_MS,
  maxWaitMs = 70_000,
  intervalMs = 1_000,
): Promise<number | null> {
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    let lag: number | null = null;
    try {
      const response = await fetch(`${url.replace(/\/$/, "")}/api/v1/health`, { signal: AbortSignal.timeout(30_000) });
      const reported = ((await response.json()) as { eventLoop?: { worstLagMs?: unknown } }).eventLoop?.worstLagMs;
      if (typeof reported === "number") lag = reported;
    } catch {
      // not answering yet
    }
    if (lag === null || lag <= limitMs || Date.now() + intervalMs > deadline) return lag;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Starts watching; `stop()` asks once more (the window covers the end of the load) and returns what was seen.
 * `onAnswer` hears each ask: its status ("network" for no answer) and how long the answer took (ms).
 */
export function watchHealth(
  url: string,
  intervalMs = 1_000,
  onAnswer?: (status: string, ms: number) => void,
): { stop(): Promise<HealthWatch> } {
  const seen: HealthWatch = { statuses: {}, worstLagMs: null, maxLatencyMs: 0 };
  const ask = async () => {
    const started = performance.now();
    let status = "network";
    try {
      const response = await fetch(`${url.replace(/\/$/, "")}/api/v1/health`, { signal: AbortSignal.timeout(30_000) });
      const body = (await response.json().catch(() => null)) as { eventLoop?: { worstLagMs?: unknown } } | null;
      status = String(response.status);
      const lag = body?.eventLoop?.worstLagMs;
      if (typeof lag === "number") seen.worstLagMs = Math.max(seen.worstLagMs ?? 0, lag);
    } catch {
      status = "network";
    }
    const ms = performance.now() - started;
    seen.statuses[status] = (seen.statuses[status] ?? 0) + 1;
    seen.maxLatencyMs = Math.max(seen.maxLatencyMs, ms);
    onAnswer?.(status, ms);
  };
  let asking = ask();
  const timer = setInterval(() => {
    asking = asking.then(ask);
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await asking;
      await ask();
      return seen;
    },
  };
}

export function formatHealthWatch(watch: HealthWatch): string {
  const statuses = Object.entries(watch.statuses)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  const lag = watch.worstLagMs === null ? "not reported" : `${watch.worstLagMs} ms`;
  return `health:        ${statuses}, slowest ${watch.maxLatencyMs.toFixed(0)} ms, worst event-loop lag ${lag} (limit ${MAX_EVENT_LOOP_LAG_MS} ms)`;
}

/** The server's event loop was never blocked longer than the limit (a server that does not report it fails). */
export function healthPassed(watch: HealthWatch): boolean {
  return watch.worstLagMs !== null && watch.worstLagMs <= MAX_EVENT_LOOP_LAG_MS;
}
