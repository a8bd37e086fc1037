import { readDemoKey } from "@/lib/server/auth/demo-key";
import { httpSink, type IngestSink } from "@/lib/client/ingest-sink";
import { defaultDataDir, openDatabase, readLiveHolder, refreshStatistics, type Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { env } from "@/lib/server/env";

export interface TargetOptions {
  url?: string;
  key?: string;
  project?: string;
}

export type Target =
  | { kind: "http"; label: string; sink: IngestSink; url: string; key: string; close(): Promise<void> }
  | { kind: "direct"; label: string; sink: IngestSink; db: Database; projectId: string; project: string; close(): Promise<void> };

/**
 * Where CLI tools send events. A running server is used over its API (so the embedded database is
 * never opened twice): the one named by --url / CUESCOPE_URL, or the one holding the embedded
 * directory. Otherwise the database is opened directly and events go to --project.
 */
export async function resolveTarget(options: TargetOptions): Promise<Target> {
  let url = options.url ?? env("CUESCOPE_URL");
  if (!url && !env("DATABASE_URL")) url = readLiveHolder(defaultDataDir())?.url;
  if (url) {
    const key = options.key ?? env("CUESCOPE_API_KEY") ?? readDemoKey();
    if (!key) throw new Error(`sending to the server at ${url} needs an API key: pass --key or set CUESCOPE_API_KEY`);
    // 5xx, 429 and network faults are retried with backoff and jitter (ingestion is idempotent).
    const sink = httpSink(url, key, {
      onRetry: ({ attempt, delayMs, reason }) => console.error(`\n${reason}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s`),
    });
    return { kind: "http", label: `the Cuescope server at ${url}`, sink, url, key, close: async () => {} };
  }
  const db = await openDatabase();
  const name = options.project ?? "default";
  const project = await db.prisma.project.upsert({ where: { name }, create: { name }, update: {} });
  return {
    kind: "direct",
    label: `project "${name}" in ${db.label}`,
    db,
    projectId: project.id,
    project: name,
    sink: (batch) => ingestBatch(db, project.id, batch),
    close: () => db.close(),
  };
}

/**
 * After loading runs straight into the database: rebuilds the project's new and changed runs, which
 * stores their decisions and their Reviewer audit (the Reviewer page reads only what is stored),
 * then gathers the planner's statistics of the tables the load filled (refreshStatistics).
 * Runs sent to a running server over HTTP are rebuilt there when it next reads them (the runs list,
 * a run's page); until then the Reviewer page does not show them.
 */
export async function rebuildLoadedRuns(target: Target): Promise<void> {
  if (target.kind !== "direct") return;
  const rebuilt = await settleRebuilds(target.db, { projectId: target.projectId });
  console.error(`rebuilt ${rebuilt} run${rebuilt === 1 ? "" : "s"}`);
  await refreshStatistics(target.db);
}
