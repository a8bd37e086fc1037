import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite } from "@electric-sql/pglite";

const BACKGROUND_WORK = Symbol.for("cuescope.pgliteGate.backgroundWork");

/**
 * Work done for a background job (a what-if replay) rather than for a request: its statements on
 * the embedded database give way to requests' (gatedPglite). Everything the work starts, timers
 * included, runs in it.
 *
 * One for the whole process, kept on globalThis: a production build bundles this module more than
 * once (the database is opened from the instrumentation hook's bundle, the replay workers start
 * from a route's), and a store of one copy's is invisible to another's gate — a replay's statements
 * then queued as requests' and never gave way.
 */
const backgroundWork: AsyncLocalStorage<true> = ((globalThis as { [BACKGROUND_WORK]?: AsyncLocalStorage<true> })[BACKGROUND_WORK] ??=
  new AsyncLocalStorage<true>());

/** Runs `work` as background work: its embedded-database statements wait while requests' are queued (gatedPglite). */
export function asBackgroundWork<T>(work: () => T): T {
  return backgroundWork.run(true, work);
}

/** Whether the caller runs as background work (asBackgroundWork): the PGlite thread's messages carry it. */
export function isBackgroundWork(): boolean {
  return backgroundWork.getStore() === true;
}

/**
 * How long a background statement waits at most while requests' statements keep coming (ms): then
 * it goes next, so a steady stream of requests slows a job down but never stops it.
 */
export const BACKGROUND_MAX_WAIT_MS = 250;

/**
 * The share background work keeps under a steady stream of requests: after this many requests'
 * statements started while a background one waited, the background one goes next. Without it a job
 * of sequential statements would get one every BACKGROUND_MAX_WAIT_MS (4 a second) while requests
 * keep coming, and a large replay could outlast its expiry.
 */
export const REQUESTS_BEFORE_BACKGROUND = 8;

interface Waiting {
  start: () => void;
  since: number;
}

/**
 * PGlite runs each statement synchronously in WebAssembly on this thread, and its own lock hands
 * the connection to the next waiting statement in a microtask: statements queued behind one another
 * (twenty requests' reads, a rebuild's writes) then run back to back, and the event loop gets no
 * turn — no timer, no I/O, no other request, `/api/v1/health` included — until the whole queue is
 * drained (`npm run test:load -- --profile mixed` measured stalls of 400–700 ms this way).
 *
 * The gate puts the statements (`query`, `exec`, and a whole `transaction`) in its own queues and
 * starts each one from `setImmediate`, so the loop turns between two statements: a stall lasts one
 * statement, not a queue of them. A transaction keeps the connection to itself as before
 * (statements inside it run on its own `tx`, not through the gate).
 *
 * Two queues, each first-come: requests' statements, and background work's (asBackgroundWork: a
 * replay's reads and writes). The next statement is a request's whenever one is waiting, unless the
 * oldest background one has waited BACKGROUND_MAX_WAIT_MS or REQUESTS_BEFORE_BACKGROUND requests'
 * statements went ahead of it: a request's read then waits behind the one statement (or transaction)
 * running when it came and at most one background statement per REQUESTS_BEFORE_BACKGROUND of
 * requests', not behind a job's queue of them; the job keeps at least that share.
 */
export function gatedPglite(pglite: PGlite): PGlite {
  const requests: Waiting[] = [];
  const background: Waiting[] = [];
  let busy = false;
  let scheduled = false;
  /** Requests' statements started while a background one waited, since a background one last started. */
  let passed = 0;

  const next = () => {
    scheduled = false;
    if (busy) return;
    const useBackground =
      background.length > 0 &&
      (requests.length === 0 || passed >= REQUESTS_BEFORE_BACKGROUND || performance.now() - background[0].since >= BACKGROUND_MAX_WAIT_MS);
    const waiting = useBackground ? background.shift() : requests.shift();
    if (!waiting) return;
    passed = useBackground ? 0 : background.length > 0 ? passed + 1 : 0;
    busy = true;
    waiting.start();
  };
  const schedule = () => {
    if (busy || scheduled || (requests.length === 0 && background.length === 0)) return;
    scheduled = true;
    setImmediate(next);
  };
  const inTurn = <T>(work: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        let running: Promise<T>;
        try {
          running = work();
        } catch (error) {
          running = Promise.reject(error);
        }
        running.then(resolve, reject).finally(() => {
          busy = false;
          schedule();
        });
      };
      (backgroundWork.getStore() ? background : requests).push({ start, since: performance.now() });
      schedule();
    });

  const gated = new Set<PropertyKey>(["query", "exec", "transaction"]);
  return new Proxy(pglite, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!gated.has(property)) return method.bind(target);
      return (...args: unknown[]) => inTurn(() => method.apply(target, args) as Promise<unknown>);
    },
  });
}
