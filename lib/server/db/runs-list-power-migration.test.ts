import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild, summarizeDecisions } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { hasViolations, reviewerAudit } from "@/lib/derived/reviewer/audit";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { runListFigures } from "@/lib/server/runs/list-figures";
import { keysWithoutProject } from "@/lib/server/testing/key-audit";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import type { Database } from ".";
import { applyMigrations } from "./migrate";
import { taskThreads } from "@/lib/server/background/tasks";

const RUNS_LIST_POWER = "20261209000000_runs_list_power";

describe.each(bareDatabases())(`${RUNS_LIST_POWER} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("fills the list figures of runs rebuilt before it from their stored summary and Reviewer rows, as a rebuild writes them", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(RUNS_LIST_POWER)));
    const projectId = (await db.prisma.project.create({ data: { name: "list-power-migration" } })).id;
    const events = generateEtfRun({ runId: "old-rough", seed: 6, turns: 120, anomalies: true }).events.map(
      (e) => ZEvent.parse(e) as TEvent,
    );
    expect((await ingestBatch(db, projectId, events)).summary.error).toBe(0);
    const failedStart = { ...events[0], runId: "old-failed", id: "failed-start" };
    expect((await ingestBatch(db, projectId, [failedStart])).summary.error).toBe(0);
    const [rough, failed] = await Promise.all(
      ["old-rough", "old-failed"].map((runId) =>
        db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } }, select: { id: true } }),
      ),
    );

    // What the previous version stored (raw SQL: only the columns these migrations knew).
    const decisions = rebuild(events);
    const summary = summarizeDecisions(decisions);
    const audit = reviewerAudit(events, decisions);
    // The meters' stages as 20270105000000_alerts fills them (a later migration this test also applies);
    // the turns to the limits are not columns selected here (a summary without a projection has none).
    const { meterStages, limitIn: _limitIn, ...listed } = runListFigures(summary, audit);
    const expected = {
      ...listed,
      requestsStage: meterStages.requests,
      timeStage: meterStages.time,
      contextStage: meterStages.context,
      editsStage: meterStages.edits,
    };
    expect(expected.findingCount).toBeGreaterThan(0);
    expect(expected.droppedCount).toBeGreaterThan(0);
    expect(expected.reviewerViolations).toBeGreaterThan(0);
    expect(expected.editsStage).toBeGreaterThan(0);
    await db.withSql(async (sql) => {
      await sql.query(
        `INSERT INTO run_decisions (project_id, run_pk, event_count, max_seq, findings, summary, error)
         VALUES ($1, $2, $3, 999999, '[]', $4::jsonb, NULL), ($1, $5, 1, 999999, NULL, NULL, 'the rebuild failed: out of memory')`,
        [projectId, rough.id, events.length, JSON.stringify(summary), failed.id],
      );
      await sql.query(
        `INSERT INTO reviewer_rows (project_id, run_pk, ordinal, turn, has_violations, row)
         SELECT $1, $2, u.n - 1, u.t, u.v, '{}' FROM unnest($3::int[], $4::bool[]) WITH ORDINALITY AS u(t, v, n)`,
        [projectId, rough.id, audit.rows.map((r) => r.turn), audit.rows.map(hasViolations)],
      );
    });

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(RUNS_LIST_POWER, true)))).toEqual([RUNS_LIST_POWER]);
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);

    const figures = (runId: string) =>
      db.prisma.run.findUniqueOrThrow({
        where: { projectId_runId: { projectId, runId } },
        select: {
          findingCount: true,
          droppedCount: true,
          dropRate: true,
          reviewerViolations: true,
          findingCodes: true,
          requestsStage: true,
          timeStage: true,
          contextStage: true,
          editsStage: true,
        },
      });
    expect(await figures("old-rough")).toEqual(expected);
    expect(await figures("old-failed")).toEqual({
      findingCount: null,
      droppedCount: null,
      dropRate: null,
      reviewerViolations: null,
      findingCodes: [],
      requestsStage: null,
      timeStage: null,
      contextStage: null,
      editsStage: null,
    });

    // A rebuild now writes the same figures the migration filled in.
    await db.prisma.runDecisionsCache.update({
      where: { projectId_runPk: { projectId, runPk: rough.id } },
      data: { eventCount: 0, maxSeq: 0 },
    });
    await db.prisma.run.update({ where: { projectId_id: { projectId, id: rough.id } }, data: { findingCount: null, findingCodes: [] } });
    expect((await rebuildRun(db, taskThreads(0), projectId, rough.id)).ok).toBe(true);
    expect(await figures("old-rough")).toEqual(expected);
  }, 120_000);
});
