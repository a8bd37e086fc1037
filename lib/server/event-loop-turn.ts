/**
 * Waits for the event loop's next turn (`setImmediate`): timers, sockets and other requests run
 * first. For work that would otherwise hold the loop: a loop parsing large texts piece by piece,
 * or sending large pieces one after another.
 */
export function eventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
