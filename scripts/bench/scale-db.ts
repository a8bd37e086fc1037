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
import { getRunDecisions } from "@/lib/server/runs/run-decisions";
import { createScratchPostgres, tempDataDir } from "@/lib/server/testing/databases";
import { progressBar } from "@/scripts/lib/progress";

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
 * Brings the derived data up to date, so reads are timed on settled data rather than on the
 * rebuilds a stale run costs its first reader.
 *
 * For now this rebuilds every run whose cached decisions are stale, in this process, through the
 * same `getRunDecisions` a read would call. When rebuilds move into background jobs this becomes
 * "wait until the rebuild queue is drained" — the one place the bench needs to change.
 */
export async function settle(db: Database, label = "settling (rebuilding every run)"): Promise<{ runs: number; seconds: number }> {
  const started = Date.now();
  const runs = await db.prisma.run.findMany({ orderBy: { id: "asc" } });
  const bar = progressBar(label);
  for (let i = 0; i < runs.length; i++) {
    const result = await getRunDecisions(db, runs[i]);
    if (!result.ok) throw new Error(`run ${runs[i].runId} did not rebuild: ${result.error}`);
    bar.update(i + 1, runs.length, runs[i].runId);
  }
  bar.done(`${runs.length} runs`);
  return { runs: runs.length, seconds: (Date.now() - started) / 1000 };
}
