import PgBoss from "pg-boss";
import type { Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { ProjectLimits } from "./project-limits";

/** The queues, in pg-boss's schema `pgboss` of the app's own database. */
export const QUEUES = {
  /**
   * One run's rebuild; at most one waiting per run (policy "short", key = the run). Not "stately":
   * in pg-boss 10 a stately queue whose oldest job's key is already running hands out nothing at
   * all until that job ends (timgit/pg-boss#535). Two rebuilds of one run may overlap; the stored
   * result keeps the one that read the most (rebuild-run.ts).
   */
  rebuild: "cuescope-rebuild",
  /** Every enabled alert rule's evaluation (lib/server/alerts/evaluate.ts), sent every minute by pg-boss's schedule; one at a time. */
  alertEvaluation: "cuescope-alert-evaluation",
  /** One alert's webhook (lib/server/alerts/deliver.ts): retried with backoff until a 2xx or its retries run out. */
  alertDelivery: "cuescope-alert-delivery",
} as const;

/** How often the alert rules are evaluated (pg-boss's cron: every minute, the finest it has). */
export const ALERT_EVALUATION_CRON = "* * * * *";
/**
 * A webhook's attempts after the first. pg-boss's backoff waits between d·2^k and d·2^(k+1) seconds before
 * retry k (d the retry delay, 5 s): the last of 8 comes 21 to 42 minutes after the first.
 */
export const ALERT_DELIVERY_RETRIES = 8;
// What-if replays have their own queue, the replay_jobs table (replay-queue.ts): fair across
// projects and with heartbeats, which pg-boss 10 has not. Its former queues "cuescope-replay" and
// "cuescope-replay-lost" are no longer worked.

export interface RebuildJob {
  projectId: string;
  runPk: string;
}

export interface AlertDeliveryJob {
  projectId: string;
  deliveryId: string;
}

export interface JobHandlers {
  rebuild(job: RebuildJob): Promise<void>;
  /** Evaluates every alert rule; `send` adds delivery jobs inside the caller's transaction. */
  evaluateAlerts?(send: (tx: SqlTransaction, jobs: readonly AlertDeliveryJob[]) => Promise<void>): Promise<void>;
  /** One webhook attempt; throws to be retried. */
  deliverAlert?(job: AlertDeliveryJob, attempts: { retryCount: number; retryLimit: number }): Promise<void>;
}

/** A transaction's raw SQL (Prisma's), which pg-boss's send can run its insert on. */
export interface SqlTransaction {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Cuescope's durable job queue: pg-boss on the app's own PostgreSQL (or PGlite, through the same
 * connection), so jobs are rows that survive a restart and any number of processes on any number
 * of machines can share them. pg-boss rather than graphile-worker: its 10.x line runs on Node 20
 * (graphile-worker 0.18 needs 22.18), and it takes a caller's connection (`db.executeSql`), which
 * is the only way to reach an embedded PGlite database.
 *
 * `workers` > 0 makes this process work the queue (that many jobs at once, at most
 * CUESCOPE_PROJECT_JOBS of one project); 0 only sends.
 */
export class JobQueue {
  private constructor(
    readonly boss: PgBoss,
    private readonly workerIds: string[],
  ) {}

  static async open(
    db: Database,
    options: {
      workers: number;
      handlers?: JobHandlers;
      /** Seconds between a failed job's attempts (tests shorten it). */ retryDelay?: number;
    },
  ): Promise<JobQueue> {
    const retryDelay = options.retryDelay ?? 5;
    const working = options.workers > 0 && options.handlers !== undefined;
    const boss = new PgBoss({
      db: { executeSql: (text, values) => db.executeSql(text, values) },
      schema: "pgboss",
      // Maintenance (expiring lost jobs, archiving) and the schedule's timers only where jobs are worked.
      supervise: working,
      schedule: working,
      maintenanceIntervalSeconds: 30,
    });
    boss.on("error", (error) => console.error("[cuescope] job queue:", error));
    await boss.start();
    try {
      return await JobQueue.setUp(boss, db, options, retryDelay);
    } catch (error) {
      // Started timers must not outlive a start that failed (the next request tries again).
      await boss.stop({ graceful: false, close: false, wait: true }).catch(() => {});
      throw error;
    }
  }

  private static async setUp(
    boss: PgBoss,
    db: Database,
    options: { workers: number; handlers?: JobHandlers },
    retryDelay: number,
  ): Promise<JobQueue> {
    const working = options.workers > 0 && options.handlers !== undefined;
    await ensureQueue(boss, {
      name: QUEUES.rebuild,
      policy: "short",
      retryLimit: 3,
      retryDelay,
      retryBackoff: true,
      expireInSeconds: 300,
    });
    // One evaluation at a time: a slow one is not joined by the next minute's, which waits its turn.
    await ensureQueue(boss, { name: QUEUES.alertEvaluation, policy: "singleton", retryLimit: 0, expireInSeconds: 300 });
    await ensureQueue(boss, {
      name: QUEUES.alertDelivery,
      policy: "standard",
      retryLimit: ALERT_DELIVERY_RETRIES,
      retryDelay,
      retryBackoff: true,
      // An attempt waits at most CUESCOPE_WEBHOOK_TIMEOUT_MS for its answer; one still active after this died with its process.
      expireInSeconds: 120,
      // A delivery's job waits up to a week for a worker (then pg-boss drops it and its delivery stays pending).
      retentionDays: 7,
    });
    if (working) await boss.schedule(QUEUES.alertEvaluation, ALERT_EVALUATION_CRON);
    const queue = new JobQueue(boss, []);
    if (working) await queue.work(db, options.workers, options.handlers!);
    return queue;
  }

  /** Schedules the runs' rebuilds, gathering events that arrive within `delayMs` into the same one. */
  async scheduleRebuilds(projectId: string, runPks: readonly string[], delayMs = env("CUESCOPE_REBUILD_DELAY_MS")): Promise<void> {
    const startAfter = delayMs > 0 ? new Date(Date.now() + delayMs) : undefined;
    await Promise.all(
      runPks.map((runPk) => this.boss.send(QUEUES.rebuild, { projectId, runPk } satisfies RebuildJob, { singletonKey: runPk, startAfter })),
    );
    // This process works the queue: look now rather than at the next poll.
    if (!startAfter) for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  /**
   * Sends the deliveries' jobs inside `tx`, the transaction that made the deliveries: the job exists
   * exactly when its delivery does, whatever happens to the process after the commit.
   */
  async sendAlertDeliveries(tx: SqlTransaction, jobs: readonly AlertDeliveryJob[]): Promise<void> {
    const db = {
      // pg-boss passes the job's data as an object for its `$3::jsonb`; Prisma's raw query takes JSON text.
      executeSql: async (text: string, values: unknown[] = []) => ({
        rows: await tx.$queryRawUnsafe<unknown[]>(
          text,
          ...values.map((v) => (v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v)),
        ),
      }),
    };
    for (const job of jobs) await this.boss.send(QUEUES.alertDelivery, { ...job }, { db });
  }

  /** Stops fetching, lets running jobs finish (up to `timeoutMs`), then closes. */
  async close(timeoutMs = 10_000): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  }

  private async work(db: Database, workers: number, handlers: JobHandlers): Promise<void> {
    // The embedded database has one owner, this process: any job still active is a dead
    // predecessor's. It counts as a failed attempt (one that took the process down must not crash
    // every restart): retried while attempts are left, else failed.
    if (db.kind === "pglite") {
      await db.executeSql(
        `UPDATE pgboss.job SET retry_count = retry_count + 1, start_after = now(),
                state = CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END::pgboss.job_state
          WHERE state = 'active'`,
      );
    }
    const limits = new ProjectLimits(env("CUESCOPE_PROJECT_JOBS"));
    const polling = { pollingIntervalSeconds: 1, batchSize: 1 };
    for (let i = 0; i < workers; i++) {
      this.workerIds.push(
        await this.boss.work<RebuildJob>(QUEUES.rebuild, polling, async ([job]) =>
          limits.run(job.data.projectId, () => handlers.rebuild(job.data)),
        ),
      );
    }
    const evaluate = handlers.evaluateAlerts;
    if (evaluate)
      this.workerIds.push(
        await this.boss.work(QUEUES.alertEvaluation, polling, async () => evaluate((tx, jobs) => this.sendAlertDeliveries(tx, jobs))),
      );
    const deliver = handlers.deliverAlert;
    if (deliver) {
      for (let i = 0; i < workers; i++) {
        this.workerIds.push(
          await this.boss.work<AlertDeliveryJob>(QUEUES.alertDelivery, { ...polling, includeMetadata: true }, async ([job]) =>
            deliver(job.data, { retryCount: job.retryCount, retryLimit: job.retryLimit }),
          ),
        );
      }
    }
  }
}

async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
  else await boss.createQueue(queue.name, queue);
}
