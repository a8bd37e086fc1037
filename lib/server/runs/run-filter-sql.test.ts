import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { endedEvent, startedEvent, turnEvents, type Raw } from "@/lib/server/testing/events";
import { runFilterSql } from "./run-filter-sql";
import { runFilterWhere, type RunFilters } from "./run-filters";

/** Runs that differ in every filtered column, with tasks that hold LIKE's special characters. */
const RUNS: { runId: string; task: string; agent: string; model: string; ts: string; status?: string }[] = [
  { runId: "percent", task: "Cut fees by 5% this year", agent: "etf-agent", model: "m-large", ts: "2026-11-01T10:00:00.000Z" },
  { runId: "under", task: "Read fee_table.csv", agent: "etf-agent", model: "m-small", ts: "2026-11-02T10:00:00.000Z", status: "completed" },
  {
    runId: "slash",
    task: "Open C:\\reports\\FEES",
    agent: "bond-agent",
    model: "m-large",
    ts: "2026-11-03T10:00:00.000Z",
    status: "failed",
  },
  { runId: "plain", task: "Compare fees of VOO and IVV", agent: "bond-agent", model: "m-small", ts: "2026-11-04T10:00:00.000Z" },
  {
    runId: "letters",
    task: "Compare 5 x fees_or_not",
    agent: "etf-agent",
    model: "m-large",
    ts: "2026-11-05T10:00:00.000Z",
    status: "completed",
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
];

describe.each(testDatabases())("runFilterSql on $name", (kind) => {
  let db: Database;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await db.prisma.project.create({ data: { name: "filter-sql" } })).id;
    const other = (await db.prisma.project.create({ data: { name: "filter-sql-other" } })).id;
    const events: Raw[] = [];
    for (const run of RUNS) {
      events.push({ ...startedEvent(run.runId, `${run.runId}-start`, { task: run.task, agent: run.agent, model: run.model }), ts: run.ts });
      if (run.status) events.push({ ...endedEvent(run.runId, run.status), ts: run.ts.replace("T10", "T11") });
    }
    events.push(...turnEvents("no-start", 1, 3, 100)); // a run without run.started: no task, no agent
    expect((await ingestBatch(db, projectId, events)).summary.error).toBe(0);
    expect((await ingestBatch(db, other, [startedEvent("percent", "other-start")])).summary.error).toBe(0);
  }, 60_000);
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
