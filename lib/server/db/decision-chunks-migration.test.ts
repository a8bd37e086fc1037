import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { staleRuns } from "@/lib/server/rebuild/stale-runs";
import { findRun } from "@/lib/server/runs/find-run";
import { getRunDecisions, NOT_YET_REBUILT } from "@/lib/server/runs/run-decisions";
import { getDecisionsJson } from "@/lib/server/runs/run-reads";
import { keysWithoutProject } from "@/lib/server/testing/key-audit";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import type { Database } from ".";
import { applyMigrations } from "./migrate";
import { taskThreads } from "@/lib/server/background/tasks";

const DECISION_CHUNKS = "20261203000000_decision_chunks";

describe.each(bareDatabases())(`${DECISION_CHUNKS} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("resets the decisions stored whole, so the sweep rebuilds them into chunks, and keeps a failed rebuild's error", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(DECISION_CHUNKS)));
    const projectId = (await db.prisma.project.create({ data: { name: "chunks-migration" } })).id;
    const events = generateEtfRun({ runId: "old-whole", seed: 5, turns: 300, anomalies: true }).events.map(
      (e) => ZEvent.parse(e) as TEvent,
    );
    expect((await ingestBatch(db, projectId, events)).summary.error).toBe(0);
    expect(
      (
        await ingestBatch(
          db,
          projectId,
          [events[0]].map((e) => ({ ...e, runId: "old-failed", id: "failed-start" })),
        )
      ).summary.error,
    ).toBe(0);
    // The runs' keys by raw SQL too: the client's run has columns later migrations add (runs.comment_count).
    const pkOf = async (runId: string) =>
      (
        await db.withSql((sql) =>
          sql.query<{ id: string }>(`SELECT id FROM runs WHERE project_id = $1 AND run_id = $2`, [projectId, runId]),
        )
      )[0];
    const [oldWhole, oldFailed] = [await pkOf("old-whole"), await pkOf("old-failed")];
    // Rows as the previous version stored them (raw SQL: the client knows the new schema only).
    await db.withSql((sql) =>
      sql.query(
        `INSERT INTO run_decisions (project_id, run_pk, event_count, max_seq, decisions, summary, error)
         VALUES ($1, $2, $3, 999999, $4, '{}', NULL), ($1, $5, 1, 999999, NULL, NULL, 'the rebuild failed: out of memory')`,
        [projectId, oldWhole.id, events.length, JSON.stringify(rebuild(events)), oldFailed.id],
      ),
    );

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(DECISION_CHUNKS, true)))).toEqual([DECISION_CHUNKS]);
    // Later migrations, whatever they are, on top: the reads below use today's schema.
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);
    const whole = await findRun(db, projectId, "old-whole");
    const failed = await findRun(db, projectId, "old-failed");

    // The row with whole decisions is gone: reads say "not rebuilt yet", the sweep finds the run.
    expect(await getRunDecisions(db, whole)).toEqual({ ok: false, error: NOT_YET_REBUILT, staleEvents: events.length, pending: true });
    expect((await staleRuns(db, { projectId })).get(projectId)).toEqual([whole.id]);
    // The failed rebuild keeps its error, and is not swept again.
    expect(await getRunDecisions(db, failed)).toEqual({
      ok: false,
      error: "the rebuild failed: out of memory",
      staleEvents: 0,
      pending: false,
    });

    await rebuildRun(db, taskThreads(0), projectId, whole.id);
    expect((await getDecisionsJson(db, projectId, "old-whole")).json).toBe(JSON.stringify(rebuild(events)));
    expect(await db.prisma.runDecisionChunk.count({ where: { projectId, runPk: whole.id } })).toBe(2);
    expect(await staleRuns(db, { projectId })).toEqual(new Map());
  }, 60_000);
});
