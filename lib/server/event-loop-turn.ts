/**
 * Waits for the event loop's next turn (`setImmediate`): timers, sockets and other requests run
 * first. For work that would otherwise hold the loop: a loop parsing large texts piece by piece, or
 * the embedded database's statements, which settle as microtasks and never give the loop a turn
 * of their own (lib/server/db/pglite-gate.ts).
 */
export function eventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
