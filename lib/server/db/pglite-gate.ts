import type { PGlite } from "@electric-sql/pglite";
import { eventLoopTurn } from "@/lib/server/event-loop-turn";

/**
 * PGlite runs each statement synchronously in WebAssembly on this thread, and its own lock hands
 * the connection to the next waiting statement in a microtask: statements queued behind one another
 * (twenty requests' reads, a rebuild's writes) then run back to back, and the event loop gets no
 * turn — no timer, no I/O, no other request, `/api/v1/health` included — until the whole queue is
 * drained (`npm run test:load -- --profile mixed` measured stalls of 400–700 ms this way).
 *
 * The gate puts the statements (`query`, `exec`, and a whole `transaction`) in its own first-come
 * queue and starts each one from `setImmediate`, so the loop turns between two statements: a stall
 * lasts one statement, not a queue of them. The order is kept; a transaction keeps the connection
 * to itself as before (statements inside it run on its own `tx`, not through the gate).
 */
export function gatedPglite(pglite: PGlite): PGlite {
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = tail.then(eventLoopTurn).then(work);
    tail = turn.catch(() => undefined);
    return turn;
  };
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
