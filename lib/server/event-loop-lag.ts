/**
 * The server's event-loop lag: how late a timer that should fire every `sampleMs` actually fires.
 * A request that does synchronous work for 300 ms makes the next tick 300 ms late, and every other
 * request waits that long, whatever its project: `GET /api/v1/health` reports the worst lag of the
 * last `windowS` seconds so an operator (and `npm run test:load`) sees such a stall.
 *
 * A timer's drift rather than node:perf_hooks' monitorEventLoopDelay: that histogram, once reset,
 * can miss a block that happened just before its next tick, and a drift is what a request feels.
 * The worst of each slice of the window is kept, so the figure forgets a stall after `windowS`.
 */
export interface EventLoopLag {
  /** The longest the event loop was blocked in the window, in whole milliseconds. */
  worstLagMs: number;
  /** The window the worst lag is over, in seconds. */
  windowS: number;
}

export interface LagMonitorOptions {
  /** How often the timer is meant to fire (ms). */
  sampleMs?: number;
  /** The window the worst lag is kept over (s). */
  windowS?: number;
  /** How many slices the window is kept in (a stall leaves the figure within windowS / slices after windowS). */
  slices?: number;
}

export class LagMonitor {
  readonly sampleMs: number;
  readonly windowS: number;
  private readonly sliceMs: number;
  /** Per slice (its number, time / sliceMs): the worst lag seen in it. */
  private readonly worst = new Map<number, number>();
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: LagMonitorOptions = {}) {
    this.sampleMs = options.sampleMs ?? 50;
    this.windowS = options.windowS ?? 60;
    this.sliceMs = (this.windowS * 1000) / (options.slices ?? 12);
  }

  start(): this {
    if (this.timer) return this;
    this.last = performance.now();
    this.timer = setInterval(() => this.sample(performance.now()), this.sampleMs).unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A tick of the timer at `now` (ms, performance.now()): its lateness is a lag. */
  sample(now: number): void {
    this.record(now - this.last - this.sampleMs, now);
    this.last = now;
  }

  /** Records a lag of `lagMs` seen at `now`, and forgets slices older than the window. */
  record(lagMs: number, now: number): void {
    const slice = Math.floor(now / this.sliceMs);
    if (lagMs > (this.worst.get(slice) ?? 0)) this.worst.set(slice, lagMs);
    for (const old of this.worst.keys()) if (old <= slice - this.slices()) this.worst.delete(old);
  }

  /**
   * The worst lag of the window ending at `now`, including the tick that is late right now (a
   * read made straight after a block, before the timer could fire, sees it too).
   */
  read(now = performance.now()): EventLoopLag {
    let worst = this.timer ? Math.max(0, now - this.last - this.sampleMs) : 0;
    const first = Math.floor(now / this.sliceMs) - this.slices() + 1;
    for (const [slice, lag] of this.worst) if (slice >= first && lag > worst) worst = lag;
    return { worstLagMs: Math.round(worst), windowS: this.windowS };
  }

  private slices(): number {
    return Math.round((this.windowS * 1000) / this.sliceMs);
  }
}

const globalForLag = globalThis as unknown as { cuescopeLagMonitor?: LagMonitor };

/**
 * This process's monitor, started on first use (the health route, and the background work that
 * scripts/server.mjs starts as soon as it listens); one per process however the server's bundles
 * load this module.
 */
export function eventLoopLag(): EventLoopLag {
  globalForLag.cuescopeLagMonitor ??= new LagMonitor().start();
  return globalForLag.cuescopeLagMonitor.read();
}
