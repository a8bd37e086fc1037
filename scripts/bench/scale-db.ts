/**
 * The scale bench's databases: a scratch one per measurement (PostgreSQL when DATABASE_URL is set,
 * else a temporary embedded PGlite directory), filled through the real ingest path, and `settle`,
 * which brings the derived data up to date before any read is timed.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { TRawEvent } from "@/lib/demo/etf-run";
import { openDatabase, type Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { staleRuns } from "@/lib/server/rebuild/stale-runs";
import { createScratchPostgres, tempDataDir } from "@/lib/server/testing/databases";
import { progressBar } from "@/scripts/lib/progress";
import { taskThreads } from "@/lib/server/background/tasks";

export type DatabaseKind = "postgres" | "pglite";

/** Which database the scale bench uses: PostgreSQL when DATABASE_URL is set. */
export function scaleDatabaseKind(): DatabaseKind {
  return env("DATABASE_URL") ? "postgres" : "pglite";
}

/**
 * A scratch database: opened in this process to load and settle it; `serverEnv` points a server at
 * it (close it first on PGlite: one process at a time); `remove` deletes it.
 */
export interface ScratchDatabase {
  kind: DatabaseKind;
  /** The PostgreSQL URL (PostgreSQL only). */
  url?: string;
  /** The embedded directory (PGlite only). */
  dataDir?: string;
  open(): Promise<Database>;
  serverEnv(): Record<string, string | undefined>;
  remove(): Promise<void>;
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const adminUrl = env("DATABASE_URL");
  if (adminUrl) {
    const scratch = await createScratchPostgres(adminUrl, "cuescope_bench_scale");
    return {
      kind: "postgres",
      url: scratch.url,
      open: () => openDatabase({ url: scratch.url }),
      serverEnv: () => ({ DATABASE_URL: scratch.url }),
      remove: () => scratch.drop(),
    };
  }
  const dataDir = tempDataDir();
  return {
    kind: "pglite",
    dataDir,
    // url "" = the embedded database, whatever DATABASE_URL says.
    open: () => openDatabase({ url: "", dataDir }),
    serverEnv: () => ({ DATABASE_URL: undefined, CUESCOPE_DATA_DIR: dataDir }),
    remove: async () => rmSync(dirname(dataDir), { recursive: true, force: true }),
  };
}

/** One agent's run as it sends it: its events, in emission order. */
export interface RunEvents {
  runId: string;
  events: TRawEvent[];
}

export const BATCH = 500;

/**
 * Sends the runs through `ingestBatch` (the service behind POST /api/v1/ingest) as two agents do:
 * two concurrent senders, each sending its own runs (every other one) in batches of 500.
 * Returns the wall-clock seconds taken.
 */
export async function ingestRuns(
  db: Database,
  projectId: string,
  runs: readonly RunEvents[],
  onBatch: (events: number) => void = () => {},
): Promise<number> {
  const started = process.hrtime.bigint();
  await Promise.all(
    [0, 1].map(async (sender) => {
      for (let r = sender; r < runs.length; r += 2) {
        const { events } = runs[r];
        for (let i = 0; i < events.length; i += BATCH) {
          const batch = events.slice(i, i + BATCH);
          const answer = await ingestBatch(db, projectId, batch);
          if (answer.summary.created !== batch.length)
            throw new Error(
              `ingest stored ${answer.summary.created} of ${batch.length}: ${JSON.stringify(answer.results.find((x) => x.status !== "created"))}`,
            );
          onBatch(batch.length);
        }
      }
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * Brings the derived data up to date, so reads are timed on settled data: every run whose stored
 * rebuild is behind is rebuilt here, with the rebuild job's own code (lib/server/rebuild/rebuild-run.ts)
 * on job threads, before the server is started on the database — what the server's background
 * queue would do after the load, without timing how long the queue takes to drain.
 */
export async function settle(db: Database, label = "settling (rebuilding every run)"): Promise<{ runs: number; seconds: number }> {
  const started = Date.now();
  const stale = [...(await staleRuns(db)).entries()].flatMap(([projectId, runPks]) => runPks.map((runPk) => ({ projectId, runPk })));
  const threads = taskThreads();
  const bar = progressBar(label);
  try {
    for (let i = 0; i < stale.length; i++) {
      const outcome = await rebuildRun(db, threads, stale[i].projectId, stale[i].runPk);
      if (!outcome.ok) throw new Error(`run ${stale[i].runPk} did not rebuild`);
      bar.update(i + 1, stale.length, stale[i].runPk);
    }
  } finally {
    await threads.close();
  }
  bar.done(`${stale.length} runs`);
  return { runs: stale.length, seconds: (Date.now() - started) / 1000 };
}
