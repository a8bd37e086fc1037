import { randomUUID } from "node:crypto";
import { isUniqueViolation, type Database } from "@/lib/server/db";
import { asBackgroundWork } from "@/lib/server/db/pglite-gate";
import { env } from "@/lib/server/env";
import { beatReplay, claimReplay, releaseReplay, sweepReplays, type ReplayClaim } from "./replay-queue";

/** What a worker does with a replay it claimed; `lost` aborts when the claim is taken back. */
export type RunReplay = (claim: ReplayClaim, lost: AbortSignal) => Promise<void>;

export interface ReplayWorkerOptions {
  /** Replays this process works at once (each of another project). */
  workers: number;
  run: RunReplay;
  /** Seconds a failed attempt waits before its retry. */
  retryDelayS?: number;
  /** How often a working replay is marked alive, and the sweep looks for lost ones (ms). */
  heartbeatMs?: number;
  /** A replay whose mark is older than this is taken as lost with its worker (s). */
  lostS?: number;
  /** How often an idle worker looks for a queued replay it was not told about (ms). */
  pollMs?: number;
}

/**
 * This process's replay workers (lib/server/replay/replay-queue.ts has the queue's rules): each
 * claims the next queued replay, marks it alive every `heartbeatMs` while it runs, and gives it
 * back for a retry when it fails. A sweep, as often, takes back replays whose worker (in any
 * process) stopped marking them. An embedded database's replays at work at start are its dead
 * predecessor's (one process owns it): they are taken back at once.
 */
export class ReplayWorkers {
  private closing = false;
  private readonly wakers = new Set<() => void>();
  private readonly loops: Promise<void>[] = [];
  private readonly sweeper: NodeJS.Timeout;
  private readonly retryDelayS: number;
  private readonly heartbeatMs: number;
  private readonly lostS: number;
  private readonly pollMs: number;

  private constructor(
    private readonly db: Database,
    private readonly options: ReplayWorkerOptions,
  ) {
    this.retryDelayS = options.retryDelayS ?? 5;
    this.heartbeatMs = options.heartbeatMs ?? env("CUESCOPE_REPLAY_HEARTBEAT_S") * 1000;
    this.lostS = options.lostS ?? env("CUESCOPE_REPLAY_LOST_S");
    this.pollMs = options.pollMs ?? 1_000;
    this.sweeper = setInterval(() => void this.sweep({ lostS: this.lostS }), this.heartbeatMs).unref();
  }

  static async start(db: Database, options: ReplayWorkerOptions): Promise<ReplayWorkers> {
    const workers = new ReplayWorkers(db, options);
    await workers.sweep(db.kind === "pglite" ? { lostS: 0, restart: true } : { lostS: workers.lostS });
    for (let i = 0; i < options.workers; i++) workers.loops.push(workers.loop());
    return workers;
  }

  /** A replay was queued: idle workers look now rather than at their next poll. */
  notify(): void {
    for (const wake of this.wakers) wake();
  }

  /** Stops claiming, lets running replays finish (up to `timeoutMs`; they are taken back as lost after that). */
  async close(timeoutMs = 10_000): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    this.notify();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.loops), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  private async sweep(how: { lostS: number; restart?: boolean }): Promise<void> {
    try {
      const taken = await sweepReplays(this.db, { ...how, retryDelayS: this.retryDelayS });
      for (const { replayId, error } of taken) console.error(`[cuescope] replay ${replayId}: ${error}`);
      if (taken.length > 0) this.notify(); // their retries may be due already
    } catch (error) {
      console.error("[cuescope] sweeping lost replays failed:", error);
    }
  }

  private async loop(): Promise<void> {
    while (!this.closing) {
      const claim = await this.claim();
      if (claim) await this.work(claim);
      else await this.idle();
    }
  }

  private async claim(): Promise<ReplayClaim | null> {
    try {
      // The limit is read now, when the replay runs, not when it was queued.
      return await claimReplay(this.db, randomUUID(), env("CUESCOPE_REPLAY_EXPIRE_S"));
    } catch (error) {
      // Another process claimed a replay of the same project at the same moment: look again later.
      if (!isUniqueViolation(error)) console.error("[cuescope] claiming a replay failed:", error);
      return null;
    }
  }

  /**
   * Works one claimed replay as background work (asBackgroundWork): on the embedded database its
   * statements, heartbeats included, give way to requests'.
   */
  private work(claim: ReplayClaim): Promise<void> {
    return asBackgroundWork(() => this.workClaimed(claim));
  }

  private async workClaimed(claim: ReplayClaim): Promise<void> {
    const lost = new AbortController();
    const beat = setInterval(() => {
      beatReplay(this.db, claim).then(
        (ours) => ours || lost.abort(),
        () => {}, // the database is away for a moment: the next beat tries again
      );
    }, this.heartbeatMs);
    try {
      await this.options.run(claim, lost.signal);
    } catch (error) {
      await releaseReplay(this.db, claim, (error as Error).message, this.retryDelayS).catch((failure) =>
        console.error(`[cuescope] replay ${claim.replayId} failed and could not be given back:`, failure),
      );
    } finally {
      clearInterval(beat);
    }
  }

  private idle(): Promise<void> {
    if (this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.pollMs);
      this.wakers.add(wake);
    });
  }
}
