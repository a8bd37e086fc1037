import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { hasViolations, reviewerAudit } from "@/lib/derived/reviewer/audit";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { keysWithoutProject } from "@/lib/server/testing/key-audit";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import type { Database } from ".";
import { applyMigrations } from "./migrate";
import { taskThreads } from "@/lib/server/background/tasks";

const REVIEWER_SORTS = "20261211000000_reviewer_sorts";
const START = "2026-11-20T08:00:00.000Z";

describe.each(bareDatabases())(`${REVIEWER_SORTS} on a populated $name database`, (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 60_000);
  afterAll(async () => db?.close());

  it("fills each stored Reviewer row's violation count and its run's start, as a rebuild writes them", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(REVIEWER_SORTS)));
    const projectId = (await db.prisma.project.create({ data: { name: "reviewer-sorts-migration" } })).id;
    const events = generateEtfRun({ runId: "old-audit", seed: 6, turns: 120, anomalies: true, startTime: START }).events.map(
      (e) => ZEvent.parse(e) as TEvent,
    );
    expect((await ingestBatch(db, projectId, events)).summary.error).toBe(0);
    const run = await db.prisma.run.findUniqueOrThrow({
      where: { projectId_runId: { projectId, runId: "old-audit" } },
      select: { id: true, startedAt: true },
    });
    expect(run.startedAt?.toISOString()).toBe(START);

    // What the previous version stored (raw SQL: only the columns it knew).
    const audit = reviewerAudit(events, rebuild(events));
    expect(audit.rows.some(hasViolations)).toBe(true);
    await db.withSql((sql) =>
      sql.query(
        `INSERT INTO reviewer_rows (project_id, run_pk, ordinal, turn, has_violations, row)
         SELECT $1, $2, u.n - 1, u.t, u.v, u.j FROM unnest($3::int[], $4::bool[], $5::text[]) WITH ORDINALITY AS u(t, v, j, n)`,
        [projectId, run.id, audit.rows.map((r) => r.turn), audit.rows.map(hasViolations), audit.rows.map((r) => JSON.stringify(r))],
      ),
    );

    expect(await db.withSql((sql) => applyMigrations(sql, migrationsBefore(REVIEWER_SORTS, true)))).toEqual([REVIEWER_SORTS]);
    await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR));
    expect(await db.withSql((sql) => keysWithoutProject(sql))).toEqual([]);

    const stored = () =>
      db.prisma.reviewerRow.findMany({
        where: { projectId, runPk: run.id },
        orderBy: { ordinal: "asc" },
        select: { ordinal: true, violationCount: true, runStartedMs: true },
      });
    const expected = audit.rows.map((row, ordinal) => ({
      ordinal,
      violationCount: row.findings.length,
      runStartedMs: BigInt(Date.parse(START)),
    }));
    expect(await stored()).toEqual(expected);

    // A rebuild now writes the same values the migration filled in.
    expect((await rebuildRun(db, taskThreads(0), projectId, run.id)).ok).toBe(true);
    expect(await stored()).toEqual(expected);
  }, 120_000);
});
