import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { endedEvent, startedEvent, turnEvents, type Raw } from "@/lib/server/testing/events";
import { runFilterSql } from "./run-filter-sql";
import { runFilterWhere, type RunFilters } from "./run-filters";

/** Runs that differ in every filtered column, with tasks that hold LIKE's special characters. */
const RUNS: {
  runId: string;
  task: string;
  agent: string;
  model: string;
  ts: string;
  status?: string;
  experiment?: { id: string; arm: string };
}[] = [
  {
    runId: "percent",
    task: "Cut fees by 5% this year",
    agent: "etf-agent",
    model: "m-large",
    ts: "2026-11-01T10:00:00.000Z",
    experiment: { id: "exp-a", arm: "control" },
  },
  { runId: "under", task: "Read fee_table.csv", agent: "etf-agent", model: "m-small", ts: "2026-11-02T10:00:00.000Z", status: "completed" },
  {
    runId: "slash",
    task: "Open C:\\reports\\FEES",
    agent: "bond-agent",
    model: "m-large",
    ts: "2026-11-03T10:00:00.000Z",
    status: "failed",
  },
  {
    runId: "plain",
    task: "Compare fees of VOO and IVV",
    agent: "bond-agent",
    model: "m-small",
    ts: "2026-11-04T10:00:00.000Z",
    experiment: { id: "exp-a", arm: "shorter" },
  },
  {
    runId: "letters",
    task: "Compare 5 x fees_or_not",
    agent: "etf-agent",
    model: "m-large",
    ts: "2026-11-05T10:00:00.000Z",
    status: "completed",
    experiment: { id: "exp-b", arm: "control" },
  },
];

const FILTERS: RunFilters[] = [
  {},
  { status: "live" },
  { status: "completed" },
  { status: "failed" },
  { agent: "etf-agent" },
  { agent: "nobody" },
  { model: "m-small" },
  { runId: "slash" },
  { experiment: "exp-a" },
  { experiment: "exp-b" },
  { experiment: "nobody" },
  { arm: "control" },
  { experiment: "exp-a", arm: "shorter" },
  { experiment: "exp-b", arm: "shorter" },
  { runId: "no-start" },
  { q: "fees" },
  { q: "bond" },
  { q: "M-SMALL" },
  { q: "lett" },
  { q: "FEES" },
  { q: "5%" },
  { q: "%" },
  { q: "_" },
  { q: "e_t" },
  { q: "\\" },
  { q: "C:\\reports" },
  { from: "2026-11-02T10:00:00Z" },
  { to: "2026-11-04T10:00:00Z" },
  { from: "2026-11-02T10:00:00+01:00", to: "2026-11-04T10:00:00.001Z" },
  { from: "0001-01-01T00:00:00-14:00", to: "9999-12-31T23:59:59Z" },
  { agent: "etf-agent", model: "m-large", q: "fee", from: "2026-11-01T00:00:00Z", status: "completed" },
  { hasViolations: true },
  { hasDrops: true },
  { finding: "MISSING_REMINDER" },
  { finding: "FREE_REQUEST" },
  { finding: "STAGE_MISMATCH" },
  { hasDrops: true, hasViolations: true, finding: "FREE_REQUEST" },
  { hasDrops: false, hasViolations: false },
];

/** The rebuild's list figures (lib/server/runs/list-figures.ts), set by hand: the filters read them. */
const FIGURES: Record<string, { violations: number; dropped: number; codes: string[] }> = {
  percent: { violations: 1, dropped: 0, codes: ["DISPATCH_WITHOUT_ADMISSION"] },
  under: { violations: 0, dropped: 3, codes: ["FREE_REQUEST", "MISSING_REMINDER"] },
  slash: { violations: 2, dropped: 1, codes: ["FREE_REQUEST", "CONCURRENT_DISPATCH"] },
  plain: { violations: 0, dropped: 0, codes: [] },
};

describe.each(testDatabases())("runFilterSql on $name", (kind) => {
  let db: Database;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await db.prisma.project.create({ data: { name: "filter-sql" } })).id;
    const other = (await db.prisma.project.create({ data: { name: "filter-sql-other" } })).id;
    const events: Raw[] = [];
    for (const run of RUNS) {
      events.push({
        ...startedEvent(run.runId, `${run.runId}-start`, {
          task: run.task,
          agent: run.agent,
          model: run.model,
          ...(run.experiment ? { experiment: run.experiment } : {}),
        }),
        ts: run.ts,
      });
      if (run.status) events.push({ ...endedEvent(run.runId, run.status), ts: run.ts.replace("T10", "T11") });
    }
    events.push(...turnEvents("no-start", 1, 3, 100)); // a run without run.started: no task, no agent
    expect((await ingestBatch(db, projectId, events)).summary.error).toBe(0);
    expect((await ingestBatch(db, other, [startedEvent("percent", "other-start")])).summary.error).toBe(0);
    for (const [runId, f] of Object.entries(FIGURES)) {
      await db.prisma.run.updateMany({
        where: { projectId, runId },
        data: { reviewerViolations: f.violations, droppedCount: f.dropped, findingCodes: f.codes, findingCount: f.codes.length },
      });
    }
    // The other project's run of the same id has every figure: never listed here.
    await db.prisma.run.updateMany({
      where: { projectId: other },
      data: { reviewerViolations: 5, droppedCount: 5, findingCodes: ["FREE_REQUEST", "MISSING_REMINDER", "STAGE_MISMATCH"] },
    });
  }, 60_000);

  it.each([
    [{ hasViolations: true }, ["percent", "slash"]],
    [{ hasDrops: true }, ["slash", "under"]],
    [{ finding: "FREE_REQUEST" }, ["slash", "under"]],
    [{ finding: "MISSING_REMINDER" }, ["under"]],
    [{ finding: "STAGE_MISMATCH" }, []],
    [{ hasViolations: true, hasDrops: true, finding: "FREE_REQUEST" }, ["slash"]],
    [{ hasViolations: false, hasDrops: false }, ["letters", "no-start", "percent", "plain", "slash", "under"]],
  ] satisfies [RunFilters, string[]][])("%j keeps exactly %j (runs never rebuilt have no figures)", async (filters, runIds) => {
    const rows = await db.prisma.$queryRaw<{ runId: string }[]>`
      SELECT r."run_id" AS "runId" FROM "runs" r WHERE ${runFilterSql(projectId, filters)} ORDER BY r."run_id"`;
    expect(rows.map((r) => r.runId)).toEqual(runIds);
  });
  afterAll(async () => db?.close());

  it.each(FILTERS.flatMap((filters) => [true, false].map((startedOnly) => [JSON.stringify(filters), startedOnly, filters] as const)))(
    "%s (started only: %s) gives the runs runFilterWhere gives",
    async (_, startedOnly, filters) => {
      const expected = await db.prisma.run.findMany({
        where: runFilterWhere(projectId, filters, { startedOnly }),
        select: { runId: true },
      });
      const actual = await db.prisma.$queryRaw<{ runId: string }[]>`
        SELECT r."run_id" AS "runId" FROM "runs" r WHERE ${runFilterSql(projectId, filters, { startedOnly })}`;
      expect(actual.map((r) => r.runId).sort()).toEqual(expected.map((r) => r.runId).sort());
    },
  );

  it("filters something out for most filters (the table above tests, not just agrees)", async () => {
    const all = await db.prisma.run.count({ where: { projectId } });
    expect(all).toBe(RUNS.length + 1);
    let narrower = 0;
    for (const filters of FILTERS) {
      const rows = await db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS "n" FROM "runs" r WHERE ${runFilterSql(projectId, filters, { startedOnly: true })}`;
      if (rows[0].n > 0 && rows[0].n < RUNS.length) narrower++;
    }
    expect(narrower).toBeGreaterThan(FILTERS.length / 2);
  });
});
