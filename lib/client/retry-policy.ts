// How clients of the ingest API retry: which statuses, the full-jitter backoff, Retry-After. Pure
// and without imports (no "@/" alias), so the app's HTTP sink (ingest-sink.ts) and the SDK
// (packages/sdk, which bundles it) share one policy.

/** Statuses worth sending the same batch again for: every 5xx, and 429 (rate limited). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

export interface BackoffOptions {
  /** The first backoff cap in ms (default 250); it doubles each retry. */
  retryDelayMs?: number;
  /** The largest backoff cap in ms (default 15,000). */
  maxDelayMs?: number;
  /** The longest Retry-After honoured, in ms (default 60,000); a longer one is waited this long. */
  maxRetryAfterMs?: number;
  random?: () => number;
}

/**
 * The wait before retry `attempt` (1-based): full jitter — a uniformly random time below
 * min(maxDelay, base × 2^(attempt−1)) — so clients that failed together do not retry together;
 * never shorter than the server's Retry-After (seconds or an HTTP date), capped at maxRetryAfter.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, options: BackoffOptions = {}, now = Date.now()): number {
  const base = options.retryDelayMs ?? 250;
  const cap = Math.min(options.maxDelayMs ?? 15_000, base * 2 ** (attempt - 1));
  const jitter = Math.floor((options.random ?? Math.random)() * cap);
  const after = parseRetryAfterMs(retryAfter, now);
  return after === null ? jitter : Math.max(jitter, Math.min(after, options.maxRetryAfterMs ?? 60_000));
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
