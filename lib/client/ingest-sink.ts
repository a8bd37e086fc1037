import { ZIngestResponse, type TIngestResponse } from "@/lib/contracts";
import { isRetryableStatus, retryDelayMs, type BackoffOptions } from "./retry-policy";

export { isRetryableStatus, parseRetryAfterMs, retryDelayMs } from "./retry-policy";

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

export interface RetryOptions extends BackoffOptions {
  /** Retries after the first attempt (default 8). */
  retries?: number;
  /** Injected in tests: the wait (the random source is BackoffOptions.random). */
  sleep?: (ms: number) => Promise<void>;
  /** Told before each wait (CLI progress: "server busy, retrying in …"). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
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
