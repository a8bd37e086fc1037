/**
 * A bounded loopback load on `POST /api/v1/ingest`: several senders, each at a fixed rate, sending
 * overlapping batches of the same runs (every sender sends every event of a run, split and
 * ordered its own way), then every run read back through `GET /api/v1/runs/:runId/events`.
 * Used by `npm run test:load` (scripts/load-test.ts) and the CI spec e2e/api/ingest-load.spec.ts.
 */
import { generateEtfRun, type TRawEvent } from "@/lib/demo/etf-run";

export interface LoadOptions {
  /** The server: only loopback addresses (127.0.0.1, ::1, localhost) are accepted. */
  url: string;
  key: string;
  /** How long new batches are sent (ms); requests in flight are then awaited. */
  durationMs: number;
  senders: number;
  /** Batches per second per sender. */
  ratePerSender: number;
  /** Turns per generated run (each turn is ~4–6 events); each run is sent as 2 batches per sender. */
  turnsPerRun?: number;
  /** Distinguishes this load's run ids from any other's on the same server. */
  tag?: string;
  /** Per request (ms); a request that takes longer counts as a network error. */
  requestTimeoutMs?: number;
  onProgress?: (progress: LoadProgress) => void;
  /** Each answered (or failed) ingest request: its status as counted in `statuses`, and its latency (ms). */
  onRequest?: (status: string, ms: number) => void;
}

export interface LoadProgress {
  elapsedMs: number;
  requests: number;
  statuses: Record<string, number>;
  acknowledged: number;
}

export interface LoadReport {
  durationMs: number;
  senders: number;
  ratePerSender: number;
  requests: number;
  /** By status code; "network" for a request that got no answer; NO_RETRY_AFTER_503 for a 503 without Retry-After. */
  statuses: Record<string, number>;
  serverErrors: number;
  /** 5xx other than 503 (the one 5xx a client is told to retry later). */
  serverErrorsOther503: number;
  eventsSent: number;
  /** Distinct event ids some 207 answered `created` or `duplicate`. */
  acknowledged: number;
  /** Distinct event ids read back from the server, over every run the load touched. */
  stored: number;
  /** Acknowledged but not read back (must be 0), and read back more than once (must be 0). */
  missing: string[];
  storedTwice: string[];
  /** Per-event errors in 207 answers (must be 0: the load sends only valid events). */
  eventErrors: number;
  latencyMs: { p50: number; p95: number; max: number };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** How a 503 without `Retry-After` is counted: a client is not told when to retry, so it counts as a failure. */
export const NO_RETRY_AFTER_503 = "503 without Retry-After";

/** The status a request is counted under: its code, but a 503 without `Retry-After` apart. */
export function statusOf(response: Pick<Response, "status" | "headers">): string {
  return response.status === 503 && !response.headers.get("retry-after") ? NO_RETRY_AFTER_503 : String(response.status);
}

export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!LOOPBACK.has(host)) throw new Error(`the load test targets only this machine (127.0.0.1, localhost, ::1); got ${host}`);
}

/** The events of load run `r`, ids unique per run and tag. */
function runEvents(tag: string, r: number, turns: number): TRawEvent[] {
  const runId = `load-${tag}-${r}`;
  return generateEtfRun({ runId, seed: r + 1, turns }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
}

/** A deterministic shuffle for sender `s` of run `r`: each sender splits and orders differently. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed * 2654435761 + 1;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  assertLoopback(options.url);
  const base = options.url.replace(/\/$/, "");
  const tag = options.tag ?? `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const turns = options.turnsPerRun ?? 8;
  const timeout = options.requestTimeoutMs ?? 120_000;
  const runs = new Map<number, TRawEvent[]>();
  const eventsOf = (r: number) => {
    let events = runs.get(r);
    if (!events) runs.set(r, (events = runEvents(tag, r, turns)));
    return events;
  };

  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const acknowledged = new Set<string>();
  let requests = 0;
  let eventsSent = 0;
  let eventErrors = 0;
  const started = Date.now();
  const deadline = started + options.durationMs;
  const interval = 1000 / options.ratePerSender;

  const progress = setInterval(
    () => options.onProgress?.({ elapsedMs: Date.now() - started, requests, statuses: { ...statuses }, acknowledged: acknowledged.size }),
    1000,
  );

  const sender = async (s: number) => {
    for (let step = 0; ; step++) {
      const due = started + step * interval;
      if (due >= deadline) return;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const r = Math.floor(step / 2);
      const order = shuffled(eventsOf(r), s * 7919 + r);
      const half = Math.ceil(order.length / 2);
      const batch = step % 2 === 0 ? order.slice(0, half) : order.slice(half);
      eventsSent += batch.length;
      requests++;
      const t0 = performance.now();
      let status = "network";
      try {
        const response = await fetch(`${base}/api/v1/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${options.key}` },
          body: JSON.stringify({ batch }),
          signal: AbortSignal.timeout(timeout),
        });
        status = statusOf(response);
        const text = await response.text();
        if (response.status === 207) {
          const answer = JSON.parse(text) as { results: { id: string | null; status: string }[] };
          for (const result of answer.results) {
            if (result.status === "error") eventErrors++;
            else if (result.id !== null) acknowledged.add(result.id);
          }
        }
      } catch {
        status = "network";
      }
      const ms = performance.now() - t0;
      latencies.push(ms);
      options.onRequest?.(status, ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.senders }, (_, s) => sender(s)));
  } finally {
    clearInterval(progress);
  }
  const durationMs = Date.now() - started;

  // Read every touched run back.
  const storedCount = new Map<string, number>();
  for (const events of runs.values()) {
    const runId = String(events[0].runId);
    for (const id of await readRunEventIds(base, options.key, runId)) storedCount.set(id, (storedCount.get(id) ?? 0) + 1);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const serverErrors = Object.entries(statuses)
    .filter(([s]) => /^5\d\d/.test(s))
    .reduce((n, [, c]) => n + c, 0);
  return {
    durationMs,
    senders: options.senders,
    ratePerSender: options.ratePerSender,
    requests,
    statuses,
    serverErrors,
    serverErrorsOther503: serverErrors - (statuses["503"] ?? 0),
    eventsSent,
    acknowledged: acknowledged.size,
    stored: storedCount.size,
    missing: [...acknowledged].filter((id) => !storedCount.has(id)),
    storedTwice: [...storedCount].filter(([, n]) => n > 1).map(([id]) => id),
    eventErrors,
    latencyMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0 },
  };
}

/** Every stored event id of a run, page by page (404: the run was never created). */
export async function readRunEventIds(base: string, key: string, runId: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const response = await fetch(`${base}/api/v1/runs/${encodeURIComponent(runId)}/events?${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (response.status === 404) return ids;
    if (response.status !== 200)
      throw new Error(`reading ${runId} back answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    const page = (await response.json()) as { events: { event: { id: string } }[]; nextCursor: string | null };
    for (const { event } of page.events) ids.push(event.id);
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** The report as plain text lines. */
export function formatLoadReport(report: LoadReport): string {
  const statuses = Object.entries(report.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  return [
    `load: ${report.senders} senders × ${report.ratePerSender} batch/s for ${(report.durationMs / 1000).toFixed(1)} s`,
    `requests:      ${report.requests} (${statuses})`,
    `5xx:           ${report.serverErrors} (other than 503: ${report.serverErrorsOther503})`,
    `events sent:   ${report.eventsSent} (each event sent by every sender)`,
    `acknowledged:  ${report.acknowledged} distinct events`,
    `stored:        ${report.stored} distinct events read back (missing ${report.missing.length}, stored twice ${report.storedTwice.length})`,
    `event errors:  ${report.eventErrors}`,
    `latency:       p50 ${report.latencyMs.p50.toFixed(0)} ms, p95 ${report.latencyMs.p95.toFixed(0)} ms, max ${report.latencyMs.max.toFixed(0)} ms`,
  ].join("\n");
}

/** Whether the load went as it must: no 5xx but 503, nothing lost, nothing doubled, no event errors. */
export function loadPassed(report: LoadReport): boolean {
  return (
    report.serverErrorsOther503 === 0 &&
    (report.statuses.network ?? 0) === 0 &&
    report.missing.length === 0 &&
    report.storedTwice.length === 0 &&
    report.acknowledged === report.stored &&
    report.eventErrors === 0
  );
}
