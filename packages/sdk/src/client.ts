import type { z } from "zod";
import { BODIES, EVENT_TYPES, type TEvent, type TEventType } from "../../../lib/contracts/events";
import { checkEvent } from "../../../lib/contracts/storable";
import { experimentFields, readExperiment, type Experiment, type ExperimentArm } from "./experiment";
import { newId } from "./ids";
import { isRetryableStatus, retryDelayMs } from "../../../lib/client/retry-policy";

/** The body a caller passes for an event type (defaults of the contract may be left out). */
export type EventBody<T extends TEventType> = z.input<(typeof BODIES)[T]>;
export type EventType = TEventType;
type RunLevel = "run.started" | "run.ended";
export type TurnEventType = Exclude<TEventType, RunLevel>;

type Camel<S extends string> = S extends `${infer A}.${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
/** `meter.requests` → `meterRequests`: the Run's method for each event type of a turn. */
export type MethodName<T extends string> = Camel<T>;

export interface RecordOptions {
  /** The turn the event belongs to (required for every type but run.started and run.ended). */
  turn: number;
  /** Overrides of the generated envelope (for tests and imports): the event id and timestamp. */
  id?: string;
  ts?: string;
}

export type CuescopeErrorKind = "invalid" | "rejected" | "failed" | "dropped";

/** What onError is told: invalid events (production), rejected events or batches, batches that failed after the retries, dropped events. */
export class CuescopeError extends Error {
  constructor(
    message: string,
    readonly kind: CuescopeErrorKind,
    readonly eventIds: readonly string[] = [],
    readonly status?: number,
  ) {
    super(message);
    this.name = "CuescopeError";
  }
}

export interface CuescopeOptions {
  /** The Cuescope server's base URL; events go to `POST {url}/api/v1/ingest`. */
  url: string;
  apiKey: string;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Events per request (default 500, the server's limit). */
  maxBatchEvents?: number;
  /** The longest an event waits in the buffer before a send (default 1000 ms). */
  flushIntervalMs?: number;
  /** The buffer's bound: beyond it the oldest unsent events are dropped (default 10,000). */
  maxBufferedEvents?: number;
  /** Retries of one batch after the first attempt, on network errors, 429 and 5xx (default 8). */
  retries?: number;
  /** The first backoff cap in ms (default 250), doubling per retry up to maxRetryDelayMs (default 15,000). */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Told about every problem the SDK does not throw (default: console.warn). */
  onError?: (error: CuescopeError) => void;
  /** development: an invalid event throws at the call site; production: it is reported and dropped. Default from NODE_ENV. */
  mode?: "development" | "production";
  /** Flush on process `beforeExit` where `process` exists (default true). */
  flushOnExit?: boolean;
  /**
   * Where `process` exists: on these signals (`true` = SIGTERM and SIGINT; default none), shut down
   * (flush, at most `signalFlushTimeoutMs`, default 5,000) and then raise the signal again, so the
   * process ends as it would have without the SDK — unless other listeners of that signal remain,
   * which then decide.
   */
  flushOnSignals?: boolean | readonly string[];
  signalFlushTimeoutMs?: number;
  /** One request's time limit, answer included (default 30,000 ms; 0 = none). A request that runs over is aborted and retried like a network error. */
  requestTimeoutMs?: number;
  /** Injected in tests: the wait between retries. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface CuescopeStats {
  /** Events handed to the server at least once. */
  sent: number;
  /** Events the server holds: answered created or duplicate. */
  acknowledged: number;
  /** Of those, answered duplicate (a re-send of an event the server already had). */
  duplicates: number;
  /** Events the server refused (a per-event error, or a 4xx for the whole batch). */
  rejected: number;
  /** Events that left no trace: oldest dropped from a full buffer, or their batch failed after every retry. */
  dropped: number;
  /** Events that failed validation in production mode (reported, never sent). */
  invalid: number;
  /** Requests sent again after a network error, 429 or 5xx. */
  retries: number;
  /** Events waiting or in flight. */
  buffered: number;
}

export interface StartRunOptions {
  runId?: string;
  task: string;
  agent?: string;
  model?: string;
  policy: EventBody<"run.started">["policy"];
  copy?: EventBody<"run.started">["copy"];
  /**
   * An experiment from `cuescope.experiment(id)` (contract §10): the run is assigned its arm here,
   * by the same function as the server's assignment endpoint; the arm's copy and policy replace
   * `copy` and `policy` when it has them, and run.started records `experiment: { id, arm }`. Only a
   * running experiment assigns runs: another status throws in development (reported in production,
   * and the run starts without the experiment).
   */
  experiment?: Experiment;
}

type TurnMethods = {
  [T in TurnEventType as MethodName<T>]: (body: EventBody<T>, options: RecordOptions) => string;
};

/** A recorded event as it is sent: validated, the contract's defaults filled in. */
export type RecordedEvent = TEvent;

export type Run = TurnMethods & {
  readonly runId: string;
  /** The run's arm when it was started in an experiment (its copy and policy are the run's). */
  readonly arm: ExperimentArm | undefined;
  /**
   * The run's `run.started` event as it was sent (its policy and copy are the run's); undefined
   * when it was refused (production mode: reported to onError, never thrown).
   */
  readonly started: Extract<RecordedEvent, { type: "run.started" }> | undefined;
  /** Calls `listener` with every later event of this run, once it is validated and buffered; returns the unsubscribe. */
  onEvent(listener: (event: RecordedEvent) => void): () => void;
  /** Records any event type; returns the event id. */
  record<T extends TEventType>(type: T, body: EventBody<T>, options?: Partial<RecordOptions>): string;
  /** Records run.ended; returns its id. */
  end(body: EventBody<"run.ended">, options?: Omit<Partial<RecordOptions>, "turn">): string;
};

export interface Cuescope {
  startRun(options: StartRunOptions): Run;
  /**
   * Reads an experiment (`GET /api/v1/experiments/:id` with this client's key): its status and arms,
   * each with its copy and policy, to pass to `startRun({ experiment })`. Network errors, time-outs
   * (`requestTimeoutMs`), 429 and 5xx are retried as batches are (`retries`, full jitter,
   * Retry-After). Rejects with a CuescopeError: `rejected` with the status (404 for an unknown
   * experiment, 401/403 for the key), or `failed` when every attempt failed.
   */
  experiment(id: string): Promise<Experiment>;
  /** Resolves when every event recorded so far is acknowledged or failed for good. */
  flush(): Promise<void>;
  /** Flushes, stops the timer, and refuses new events (record throws in development, is reported in production). */
  shutdown(): Promise<void>;
  stats(): CuescopeStats;
}

const isRunLevel = (type: TEventType) => type === "run.started" || type === "run.ended";
const camel = (type: string) => type.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase());

type ExitHook = (event: string, listener: (signal?: string) => void) => unknown;
interface ProcessLike {
  on?: ExitHook;
  off?: ExitHook;
  pid?: number;
  kill?: (pid: number, signal: string) => unknown;
  listenerCount?: (event: string) => number;
}

interface Pending {
  id: string;
  event: unknown;
}

export function createCuescope(options: CuescopeOptions): Cuescope {
  const endpoint = new URL("/api/v1/ingest", options.url).toString();
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const maxBatch = options.maxBatchEvents ?? 500;
  const interval = options.flushIntervalMs ?? 1000;
  const maxBuffered = options.maxBufferedEvents ?? 10_000;
  const retries = options.retries ?? 8;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const mode = options.mode ?? (env?.NODE_ENV === "production" ? "production" : "development");
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const report =
    options.onError ??
    ((error: CuescopeError) => {
      console.warn(`[cuescope] ${error.message}`);
    });
  const backoff = { retryDelayMs: options.retryDelayMs, maxDelayMs: options.maxRetryDelayMs, random: options.random };

  const counters = { sent: 0, acknowledged: 0, duplicates: 0, rejected: 0, dropped: 0, invalid: 0, retries: 0 };
  const buffer: Pending[] = [];
  let inFlight = 0;
  let pumping: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  let dropEpisode = false;

  const safeReport = (error: CuescopeError) => {
    try {
      report(error);
    } catch {
      // onError must never break the agent
    }
  };

  function enqueue(item: Pending) {
    buffer.push(item);
    if (buffer.length > maxBuffered) {
      const excess = buffer.splice(0, buffer.length - maxBuffered);
      counters.dropped += excess.length;
      if (!dropEpisode) {
        dropEpisode = true;
        safeReport(
          new CuescopeError(
            `buffer full (${maxBuffered} events): dropping the oldest unsent events until the server accepts again`,
            "dropped",
            excess.map((e) => e.id),
          ),
        );
      }
    }
    if (buffer.length >= maxBatch) void pump();
    else if (!timer && !pumping) {
      timer = setTimeout(() => {
        timer = null;
        void pump();
      }, interval);
      (timer as { unref?: () => void }).unref?.();
    }
  }

  function pump(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    pumping ??= (async () => {
      try {
        while (buffer.length > 0) {
          const batch = buffer.splice(0, maxBatch);
          inFlight = batch.length;
          try {
            await send(batch);
          } finally {
            inFlight = 0;
          }
        }
      } finally {
        pumping = null;
      }
    })();
    return pumping;
  }

  async function send(batch: Pending[]): Promise<void> {
    const ids = batch.map((e) => e.id);
    const body = JSON.stringify({ batch: batch.map((e) => e.event) });
    counters.sent += batch.length;
    for (let attempt = 1; ; attempt++) {
      let response: Response | null = null;
      let text = "";
      let reason: string;
      // The time limit covers the request and reading its answer: an answer that never comes is a
      // network error, retried with the same ids (an attempt that did land is answered duplicate).
      const controller = requestTimeoutMs > 0 && typeof AbortController === "function" ? new AbortController() : null;
      let timedOut = false;
      const timeout = controller
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, requestTimeoutMs)
        : null;
      (timeout as { unref?: () => void } | null)?.unref?.();
      try {
        response = await doFetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
          body,
          ...(controller ? { signal: controller.signal } : {}),
        });
        reason = `${endpoint} answered ${response.status}`;
        text = await response.text();
      } catch (error) {
        response = null;
        reason = timedOut
          ? `${endpoint} did not answer within ${requestTimeoutMs} ms`
          : `cannot reach ${endpoint}: ${(error as Error).message}`;
      } finally {
        if (timeout) clearTimeout(timeout);
      }
      if (response && (response.status === 200 || response.status === 207)) {
        dropEpisode = false;
        return settle(batch, parseJson(text));
      }
      const retryable = response === null || isRetryableStatus(response.status);
      if (retryable && attempt <= retries) {
        counters.retries++;
        await sleep(retryDelayMs(attempt, response?.headers.get("retry-after") ?? null, backoff));
        continue;
      }
      const message = `${reason}${text ? `: ${errorMessage(text)}` : ""}`;
      if (retryable) {
        counters.dropped += batch.length;
        safeReport(
          new CuescopeError(`${message} (gave up after ${attempt} attempts; ${batch.length} events lost)`, "failed", ids, response?.status),
        );
      } else {
        counters.rejected += batch.length;
        safeReport(new CuescopeError(`${message} (${batch.length} events rejected, not retried)`, "rejected", ids, response?.status));
      }
      return;
    }
  }

  function settle(batch: Pending[], answer: unknown) {
    const results = (answer as { results?: { id: string | null; status: string; error?: { path: string; message: string } }[] })?.results;
    if (!Array.isArray(results)) {
      counters.acknowledged += batch.length;
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i];
      if (result?.status === "created") counters.acknowledged++;
      else if (result?.status === "duplicate") {
        counters.acknowledged++;
        counters.duplicates++;
      } else {
        counters.rejected++;
        const where = result?.error?.path ? ` at ${result.error.path}` : "";
        safeReport(new CuescopeError(`event ${item.id} rejected${where}: ${result?.error?.message ?? "no result"}`, "rejected", [item.id]));
      }
    });
  }

  let lastRecorded: RecordedEvent | undefined;
  const listeners = new Map<string, Set<(event: RecordedEvent) => void>>();

  function record(runId: string, type: TEventType, body: unknown, opts: Partial<RecordOptions> = {}): string {
    const id = opts.id ?? newId();
    if (closed) return refuse(`cannot record ${type}: the client is shut down`, id);
    const event: Record<string, unknown> = { id, runId, type, ts: opts.ts ?? new Date().toISOString(), body };
    if (!isRunLevel(type)) event.turn = opts.turn;
    const checked = checkEvent(event);
    if (!checked.ok) {
      const problems = checked.problems.map((p) => `${p.path || "(event)"}: ${p.message}`).join("; ");
      return refuse(`invalid ${type} event ${id}: ${problems}`, id);
    }
    enqueue({ id, event: checked.event });
    lastRecorded = checked.event;
    for (const listener of listeners.get(runId) ?? []) {
      try {
        listener(checked.event);
      } catch (error) {
        safeReport(new CuescopeError(`an onEvent listener threw: ${(error as Error).message}`, "invalid", [id]));
      }
    }
    return id;
  }

  function refuse(message: string, id: string): string {
    if (mode === "development") throw new CuescopeError(message, "invalid", [id]);
    counters.invalid++;
    safeReport(new CuescopeError(message, "invalid", [id]));
    return id;
  }

  function startRun(start: StartRunOptions): Run {
    const runId = start.runId ?? newId();
    const { runId: _runId, experiment, ...body } = start;
    const assigned = experiment ? experimentFields(experiment, runId) : undefined;
    if (typeof assigned === "string") refuse(`run ${runId}: ${assigned}`, runId);
    const arm = typeof assigned === "object" ? assigned.arm : undefined;
    lastRecorded = undefined;
    record(runId, "run.started", typeof assigned === "object" ? { ...body, ...assigned.fields } : body);
    const started = lastRecorded as RecordedEvent | undefined; // undefined when refused in production
    const run: Record<string, unknown> = {
      runId,
      arm,
      started,
      onEvent(listener: (event: RecordedEvent) => void) {
        let set = listeners.get(runId);
        if (!set) listeners.set(runId, (set = new Set()));
        set.add(listener);
        return () => void set.delete(listener);
      },
      record: (type: TEventType, b: unknown, opts?: Partial<RecordOptions>) => record(runId, type, b, opts),
      end: (b: unknown, opts?: Partial<RecordOptions>) => record(runId, "run.ended", b, opts),
    };
    for (const type of EVENT_TYPES) {
      if (!isRunLevel(type)) run[camel(type)] = (b: unknown, opts: RecordOptions) => record(runId, type, b, opts);
    }
    return run as unknown as Run;
  }

  async function flush(): Promise<void> {
    while (buffer.length > 0 || pumping) await pump();
  }

  // beforeExit: the event loop ran dry (main returned) with events still buffered. Sending them
  // keeps the loop alive until they are answered; then it runs dry again and the process ends.
  // Node does not emit beforeExit on process.exit() or a fatal signal: see flushOnSignals.
  const proc = (globalThis as { process?: ProcessLike }).process;
  const onBeforeExit = () => {
    if (buffer.length > 0) void pump();
  };
  const hooked = options.flushOnExit !== false && typeof proc?.on === "function";
  if (hooked) proc!.on!("beforeExit", onBeforeExit);

  const signals =
    options.flushOnSignals === true ? ["SIGTERM", "SIGINT"] : options.flushOnSignals ? [...options.flushOnSignals] : ([] as string[]);
  const signalHooked = signals.length > 0 && typeof proc?.on === "function" && typeof proc.kill === "function";
  const onSignal = (signal?: string) => {
    const limit = options.signalFlushTimeoutMs ?? 5_000;
    const deadline = new Promise<void>((resolve) => (setTimeout(resolve, limit) as { unref?: () => void }).unref?.());
    // A failed shutdown must not swallow the signal: the process still ends by it.
    const flushed = shutdown().catch((error: unknown) =>
      safeReport(new CuescopeError(`flush on ${signal ?? "signal"} failed: ${String(error)}`, "failed")),
    );
    void Promise.race([flushed, deadline]).then(() => {
      unhookSignals();
      // Raise it again as if the SDK had not listened: the default action ends the process with the
      // signal, unless the program has listeners of its own, which then decide.
      if (signal && (proc!.listenerCount?.(signal) ?? 0) === 0) proc!.kill!(proc!.pid ?? 0, signal);
    });
  };
  const unhookSignals = () => {
    if (signalHooked) for (const signal of signals) proc!.off?.(signal, onSignal);
  };
  if (signalHooked) for (const signal of signals) proc!.on!(signal, onSignal);

  async function shutdown() {
    closed = true;
    await flush();
    if (timer) clearTimeout(timer);
    timer = null;
    if (hooked) proc!.off?.("beforeExit", onBeforeExit);
  }

  /**
   * The read is retried as a batch is (network errors, 429 and 5xx; full jitter, Retry-After; at
   * most `retries` times): an agent starting while the server restarts still gets its experiment.
   */
  async function experiment(id: string): Promise<Experiment> {
    for (let attempt = 1; ; attempt++) {
      const read = await readExperiment(options.url, options.apiKey, doFetch, id, requestTimeoutMs);
      if (read.ok) return read.experiment;
      const retryable = read.status === undefined || isRetryableStatus(read.status);
      if (retryable && attempt <= retries) {
        await sleep(retryDelayMs(attempt, read.retryAfter ?? null, backoff));
        continue;
      }
      const message = retryable && attempt > 1 ? `${read.message} (gave up after ${attempt} attempts)` : read.message;
      throw new CuescopeError(message, retryable ? "failed" : read.kind, [], read.status);
    }
  }

  return {
    startRun,
    experiment,
    flush,
    async shutdown() {
      await shutdown();
      unhookSignals();
    },
    stats: () => ({ ...counters, buffered: buffer.length + inFlight }),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function errorMessage(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text.slice(0, 500);
  }
}
