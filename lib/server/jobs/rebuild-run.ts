import type { Database } from "@/lib/server/db";
import { jsonColumn } from "@/lib/server/db/json-columns";
import { clearRunAudit, storeRunAudit } from "@/lib/server/reviewer/store-audit";
import type { RebuildTaskOutput, StoredEventRow } from "./rebuild-task";
import type { TaskThreads } from "./threads";

export const WAITING_FOR_START = "waiting for the run's run.started event";

/** What one rebuild did, for the job's log and the tests. */
export interface RebuildOutcome {
  runPk: string;
  /** Events the stored rebuild includes; null when the run is gone. */
  eventCount: number | null;
  ok: boolean;
}

/**
 * Rebuilds one stored run and stores the result (the body of a rebuild job, lib/server/jobs/queue.ts):
 * reads the run's events in one query, hands them to a job thread (parsing, the core's rebuild,
 * JSON), and writes what came back. Reads never rebuild; they serve what this stored.
 *
 * A rebuild that read fewer events never overwrites one that read more (two rebuilds of one run can
 * meet: a job and a script, or two workers after a retry): the row keeps the highest `max_seq`.
 */
export async function rebuildRun(db: Database, threads: TaskThreads, projectId: string, runPk: string): Promise<RebuildOutcome> {
  const run = await db.prisma.run.findUnique({
    where: { projectId_id: { projectId, id: runPk } },
    select: { id: true, projectId: true, runId: true, task: true, eventCount: true },
  });
  if (!run) return { runPk, eventCount: null, ok: false };
  const rows = await loadEventRows(db, run);
  const maxSeq = rows.length ? rows[rows.length - 1].seq : "0";
  const output: RebuildTaskOutput =
    run.task === null && !rows.some((row) => row.type === "run.started")
      ? { ok: false, error: WAITING_FOR_START, eventCount: rows.length }
      : await threads.run("rebuild", { runId: run.runId, rows });
  await storeRebuild(db, run, maxSeq, output);
  return { runPk, eventCount: output.eventCount, ok: output.ok };
}

/** A run's stored event rows in arrival order, bodies as JSON text (parsed where the work is done). */
export function loadEventRows(db: Database, run: { projectId: string; id: string }): Promise<StoredEventRow[]> {
  return db.prisma.$queryRawUnsafe<StoredEventRow[]>(
    `SELECT "seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn", "body"::text AS "body"
       FROM "events" WHERE "project_id" = $1 AND "run_pk" = $2 ORDER BY "seq"`,
    run.projectId,
    run.id,
  );
}

/**
 * Writes a rebuild in one transaction: run_decisions and the run's Reviewer audit (reviewer_rows,
 * run_reviewer_funnels), so no reader sees the decisions of one version beside the audit of another.
 */
async function storeRebuild(
  db: Database,
  run: { id: string; projectId: string },
  maxSeq: string,
  output: RebuildTaskOutput,
): Promise<void> {
  const summary = output.ok ? JSON.stringify(jsonColumn(output.summary)) : null;
  await db.prisma.$transaction(
    async (tx) => {
      const written = await tx.$executeRawUnsafe(
        `INSERT INTO "run_decisions" ("project_id", "run_pk", "event_count", "max_seq", "decisions", "summary", "error", "checkpoint", "built_at")
         VALUES ($7, $1, $2, $3::bigint, $4, $5::jsonb, $6, NULL, now())
         ON CONFLICT ("project_id", "run_pk") DO UPDATE SET
           "event_count" = EXCLUDED."event_count", "max_seq" = EXCLUDED."max_seq", "decisions" = EXCLUDED."decisions",
           "summary" = EXCLUDED."summary", "error" = EXCLUDED."error", "checkpoint" = EXCLUDED."checkpoint", "built_at" = now()
         WHERE "run_decisions"."max_seq" <= EXCLUDED."max_seq"`,
        run.id,
        output.eventCount,
        maxSeq,
        output.ok ? output.json : null,
        summary,
        output.ok ? null : output.error,
        run.projectId,
      );
      if (written === 0) return; // a rebuild of more events got there first
      if (output.ok) await storeRunAudit(tx, { id: run.id, projectId: run.projectId, eventCount: output.eventCount }, output.audit);
      else await clearRunAudit(tx, run);
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}
