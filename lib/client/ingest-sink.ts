import { ZIngestResponse, type TIngestResponse } from "@/lib/contracts";

/** Where batches of raw events go: the running server's API, or the ingestion service directly. */
export type IngestSink = (batch: readonly unknown[]) => Promise<TIngestResponse>;

/** A failure of the HTTP sink that retrying will not fix (bad key, rejected body), or retries ran out. */
export class IngestRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "IngestRequestError";
  }
}

export interface RetryOptions {
  /** Retries after the first attempt (default 8). */
  retries?: number;
  /** The first backoff cap in ms (default 250); it doubles each retry. */
  retryDelayMs?: number;
  /** The largest backoff cap in ms (default 15,000). */
  maxDelayMs?: number;
  /** The longest Retry-After honoured, in ms (default 60,000); a longer one is waited this long. */
  maxRetryAfterMs?: number;
  /** Injected in tests: the random source and the wait. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told before each wait (CLI progress: "server busy, retrying in …"). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** Statuses worth sending the same batch again for: every 5xx, and 429 (rate limited). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait before retry `attempt` (1-based): full jitter — a uniformly random time below
 * min(maxDelay, base × 2^(attempt−1)) — so clients that failed together do not retry together;
 * never shorter than the server's Retry-After (seconds or an HTTP date), capped at maxRetryAfter.
 */
export function retryDelayMs(attempt: number, retryAfter: string | null, options: RetryOptions = {}, now = Date.now()): number {
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

/**
 * Sends batches to `POST {baseUrl}/api/v1/ingest`. Network faults, every 5xx and 429 are retried
 * with exponential backoff and full jitter, honouring Retry-After: ingestion is idempotent, so a
 * batch that may have landed is safe to send again. Other 4xx answers are not retried.
 */
export function httpSink(baseUrl: string, apiKey: string, options: RetryOptions = {}): IngestSink {
  const url = new URL("/api/v1/ingest", baseUrl).toString();
  const retries = options.retries ?? 8;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (batch) => {
    const body = JSON.stringify({ batch });
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
          body,
        });
      } catch (error) {
        const reason = `cannot reach ${url}: ${(error as Error).message}`;
        if (attempt > retries) throw new Error(`${reason} (after ${attempt} attempts)`);
        const delayMs = retryDelayMs(attempt, null, options);
        options.onRetry?.({ attempt, delayMs, reason });
        await sleep(delayMs);
        continue;
      }
      if (response.status === 207) return ZIngestResponse.parse(await response.json());
      const text = await response.text();
      if (isRetryableStatus(response.status) && attempt <= retries) {
        const delayMs = retryDelayMs(attempt, response.headers.get("retry-after"), options);
        options.onRetry?.({ attempt, delayMs, reason: `${url} answered ${response.status}` });
        await sleep(delayMs);
        continue;
      }
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {
        // not JSON: keep the text
      }
      const tries = isRetryableStatus(response.status) ? ` (after ${attempt} attempts)` : "";
      throw new IngestRequestError(`${url} answered ${response.status}: ${message}${tries}`, response.status);
    }
  };
}
