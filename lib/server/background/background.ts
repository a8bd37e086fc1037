import { getDb, type Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { runReplayJob } from "@/lib/server/replay/replay-jobs";
import { deliverAlert } from "@/lib/server/alerts/deliver";
import { evaluateAlerts } from "@/lib/server/alerts/evaluate";
import { JobQueue } from "@/lib/server/jobs/queue";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { ReplayWorkers, type ReplayWorkerOptions } from "@/lib/server/replay/replay-workers";
import { staleRuns } from "@/lib/server/rebuild/stale-runs";
import type { TaskThreads } from "@/lib/server/jobs/threads";
import { taskThreads, type Tasks } from "./tasks";
import { onRebuildWanted } from "@/lib/server/jobs/wanted";

/** This process's share of the background work: the queue, and the threads its jobs compute on. */
export interface Background {
  db: Database;
  queue: JobQueue;
  threads: TaskThreads<Tasks>;
  /** A replay was queued (its replay_jobs row): this process's idle replay workers look now. */
  enqueueReplay(projectId: string, replayId: string): Promise<void>;
  /** Stops taking jobs and lets running ones finish, up to `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
}

const SWEEP_MS = 60_000;

/**
 * Starts working the job queue in this process on `db` (CUESCOPE_WORKERS jobs of each kind at once;
 * 0: only sends): rebuild jobs rebuild a run (lib/server/rebuild/rebuild-run.ts), replay workers run
 * what-if replays from their own queue (replay-workers.ts, replay-queue.ts). Reads that find a run stale ask for its rebuild; a sweep every minute (and one at
 * start) schedules any run whose stored rebuild is behind its events, so a rebuild lost between an
 * ingest's commit and its scheduling is still made.
 */
export async function startBackground(
  db: Database,
  options: {
    workers?: number;
    threads?: TaskThreads<Tasks>;
    retryDelay?: number;
    /** The replay workers' timing (tests shorten it); their defaults come from the environment. */
    replays?: Pick<ReplayWorkerOptions, "heartbeatMs" | "lostS" | "pollMs">;
  } = {},
): Promise<Background> {
  const workers = options.workers ?? env("CUESCOPE_WORKERS");
  const threads = options.threads ?? taskThreads();
  if (workers > 0) threads.warm();
  const queue = await JobQueue.open(db, {
    workers,
    retryDelay: options.retryDelay,
    handlers: {
      rebuild: async ({ projectId, runPk }) => void (await rebuildRun(db, threads, projectId, runPk)),
      evaluateAlerts: async (send) => void (await evaluateAlerts(db, send)),
      deliverAlert: (job, attempts) => deliverAlert(db, job, attempts),
    },
  });
  const replays =
    workers > 0
      ? await ReplayWorkers.start(db, {
          ...options.replays,
          workers,
          retryDelayS: options.retryDelay,
          run: (claim, lost) => runReplayJob(db, threads, claim, lost),
        }).catch(async (error) => {
          await queue.close(0);
          throw error;
        })
      : undefined;
  const schedule = (projectId: string, runPks: readonly string[]) =>
    void queue.scheduleRebuilds(projectId, runPks).catch((error) => console.error("[cuescope] scheduling rebuilds failed:", error));
  const sweep = async () => {
    for (const [projectId, runPks] of await staleRuns(db)) schedule(projectId, runPks);
  };
  let timer: NodeJS.Timeout | undefined;
  if (workers > 0) {
    onRebuildWanted(schedule);
    await sweep().catch((error) => console.error("[cuescope] sweeping stale runs failed:", error));
    timer = setInterval(() => void sweep().catch(() => {}), SWEEP_MS).unref();
  }
  return {
    db,
    queue,
    threads,
    async enqueueReplay() {
      replays?.notify();
    },
    async close(timeoutMs?: number) {
      if (timer) clearInterval(timer);
      onRebuildWanted(undefined);
      await Promise.all([queue.close(timeoutMs), replays?.close(timeoutMs)]);
      await threads.close();
    },
  };
}

const globalForJobs = globalThis as unknown as { cuescopeBackground?: { db: Database; started: Promise<Background> } };

/**
 * The server's background work on its database, started on first use (the first ingest or read
 * after start; scripts/server.mjs asks for it as soon as it listens) and shared by every route.
 * When the process's database changes (tests hosting routes on one database after another), the
 * old one's background is closed and a new one started.
 */
export async function getBackground(): Promise<Background> {
  const db = await getDb();
  const current = globalForJobs.cuescopeBackground;
  if (current?.db === db) return current.started;
  if (current) void current.started.then((old) => old.close()).catch(() => {});
  const started = startBackground(db).catch((error) => {
    if (globalForJobs.cuescopeBackground?.started === started) globalForJobs.cuescopeBackground = undefined;
    throw error;
  });
  globalForJobs.cuescopeBackground = { db, started };
  return started;
}

/** Makes this process's routes use an already started background (tests hosting routes). */
export function useBackground(background: Background | undefined): void {
  globalForJobs.cuescopeBackground = background ? { db: background.db, started: Promise.resolve(background) } : undefined;
}
