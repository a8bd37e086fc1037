import { ZIngestResponse, type TIngestResponse } from "../contracts";

/** Where batches of raw events go: the running server's API, or the ingestion service directly. */
export type IngestSink = (batch: readonly unknown[]) => Promise<TIngestResponse>;

/** A failure of the HTTP sink that retrying will not fix (bad key, rejected body). */
export class IngestRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "IngestRequestError";
  }
}

/**
 * Sends batches to `POST {baseUrl}/api/v1/ingest`. Network faults and 503s are retried with
 * backoff: ingestion is idempotent, so a batch that may have landed is safe to send again.
 */
export function httpSink(baseUrl: string, apiKey: string, options: { retries?: number; retryDelayMs?: number } = {}): IngestSink {
  const url = new URL("/api/v1/ingest", baseUrl).toString();
  const retries = options.retries ?? 5;
  const delay = options.retryDelayMs ?? 500;
  return async (batch) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
          body: JSON.stringify({ batch }),
        });
      } catch (error) {
        if (attempt >= retries) throw new Error(`cannot reach ${url}: ${(error as Error).message}`);
        await sleep(delay * 2 ** attempt);
        continue;
      }
      if (response.status === 207) return ZIngestResponse.parse(await response.json());
      const text = await response.text();
      if ((response.status === 503 || response.status === 502) && attempt < retries) {
        await sleep(delay * 2 ** attempt);
        continue;
      }
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {
        // not JSON: keep the text
      }
      throw new IngestRequestError(`${url} answered ${response.status}: ${message}`, response.status);
    }
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
