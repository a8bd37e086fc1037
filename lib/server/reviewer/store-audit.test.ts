import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent, type TReviewerCandidatesQuery, type TReviewerListRow } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { defaultEtfPolicy, generateEtfRun, type EtfRunOptions, type TRawEvent } from "@/lib/demo/etf-run";
import { reviewerFunnel } from "@/lib/derived/reviewer/funnel";
import { reviewerRows } from "@/lib/derived/reviewer/rows";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { runFilterWhere } from "@/lib/server/runs/run-filters";
import { unreviewedRow } from "@/lib/server/testing/reviews";
import { testDatabases } from "@/lib/server/testing/databases";
import { getReviewerFunnel } from "./funnel";
import { listReviewerCandidates } from "./list-candidates";

type Query = Omit<TReviewerCandidatesQuery, "limit" | "cursor">;

const tight = { ...defaultEtfPolicy(100), reviewer: { autoReviewAllowed: true, minRequestsLeft: 60 } };
/** Runs that differ in seed, policy, agent, model, task, start and status; two start at the same instant. */
const RUNS: (EtfRunOptions & { runId: string; live?: boolean })[] = [
  { runId: "store-a", seed: 41, turns: 120, startTime: "2026-11-01T10:00:00.000Z" },
  { runId: "store-b", seed: 42, turns: 100, policy: tight, model: "m-small", startTime: "2026-11-02T10:00:00.000Z" },
  {
    runId: "store-c",
    seed: 43,
    turns: 80,
    anomalyRepeats: 2,
    agent: "bond-agent",
    task: "Bonds: compare duration",
    startTime: "2026-11-03T10:00:00.000Z",
  },
  { runId: "store-d", seed: 44, turns: 60, live: true, startTime: "2026-11-04T10:00:00.000Z" },
  { runId: "store-e", seed: 45, turns: 50, live: true, startTime: "2026-11-04T10:00:00.000Z" },
];

const FILTERS: Query[] = [
  {},
  { agent: "bond-agent" },
  { agent: "nobody" },
  { model: "m-small" },
  { runId: "store-d" },
  { status: "live" } as Query,
  { status: "completed" } as Query,
  { q: "BONDS" } as Query,
  { from: "2026-11-02T10:00:00Z" },
  { to: "2026-11-03T10:00:00Z" },
  { from: "2026-11-02T00:00:00Z", to: "2026-11-04T10:00:00.001Z" },
];

/** A generated run's events with ids of its own (the generator's ids repeat across runs). */
function eventsOf(options: (typeof RUNS)[number]): TRawEvent[] {
  const events = generateEtfRun({ ...options, anomalies: true }).events.map((e) => ({ ...e, id: `${options.runId}:${e.id}` }));
  return options.live ? events.filter((e) => e.type !== "run.ended") : events;
}

async function ingest(db: Database, projectId: string, events: readonly TRawEvent[]): Promise<void> {
  for (let at = 0; at < events.length; at += 500) {
    expect((await ingestBatch(db, projectId, events.slice(at, at + 500))).summary.error).toBe(0);
  }
}

/** Every page of the candidates, read with the given page size. */
async function allPages(db: Database, projectId: string, query: Query, limit: number): Promise<TReviewerListRow[]> {
  const rows: TReviewerListRow[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const answer = await listReviewerCandidates(db, projectId, { ...query, limit, cursor });
    expect(answer.rows.length).toBeLessThanOrEqual(limit);
    rows.push(...answer.rows);
    if (answer.nextCursor === null) return rows;
    expect(answer.rows).toHaveLength(limit);
    cursor = answer.nextCursor;
  }
  throw new Error("too many pages");
}

describe.each(testDatabases())("the stored Reviewer audit on $name", (kind) => {
  let db: Database;
  let projectId: string;
  /** The Reviewer rows of each run computed directly from its events and decisions, by runId. */
  const direct = new Map<string, ReturnType<typeof reviewerRows>>();

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await db.prisma.project.create({ data: { name: "stored-audit" } })).id;
    for (const options of RUNS) {
      const raw = eventsOf(options);
      await ingest(db, projectId, raw);
      const events: TEvent[] = raw.map((e) => ZEvent.parse(e));
      direct.set(options.runId, reviewerRows(events, rebuild(events)));
    }
    expect(await settleRebuilds(db, { projectId: projectId })).toBe(RUNS.length);
  }, 180_000);
  afterAll(async () => db?.close());

  /** What the candidates API must answer for the filters: today's order, rows computed directly. */
  async function expected(query: Query): Promise<TReviewerListRow[]> {
    const runs = await db.prisma.run.findMany({
      where: runFilterWhere(projectId, query, { startedOnly: true }),
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    });
    return runs.flatMap((run) =>
      direct
        .get(run.runId)!
        .filter((row) => !query.violations || row.findings.length > 0)
        .map((row) => unreviewedRow(run, row)),
    );
  }

  it("has rows in every run and violations in some, and the filters narrow them", async () => {
    for (const rows of direct.values()) expect(rows.length).toBeGreaterThan(0);
    expect((await expected({ violations: true })).length).toBeGreaterThan(0);
    expect((await expected({ violations: true })).length).toBeLessThan((await expected({})).length);
    const narrowed = await Promise.all(FILTERS.map(async (filters) => (await expected(filters)).length));
    expect(narrowed.filter((n) => n > 0 && n < narrowed[0]).length).toBeGreaterThan(FILTERS.length / 2);
  });

  it.each(FILTERS.flatMap((filters) => [false, true].map((violations) => [JSON.stringify(filters), violations, filters] as const)))(
    "lists and counts what reviewerRows and reviewerFunnel give, for %s (violations only: %s)",
    async (_, violations, filters) => {
      const query = { ...filters, violations };
      const rows = await expected(query);
      expect(await allPages(db, projectId, query, 500)).toEqual(rows);
      expect(await getReviewerFunnel(db, projectId, query)).toEqual(reviewerFunnel(rows));
    },
  );

  it.each([1, 3, 500])("gives every row exactly once, in order, in pages of %i", async (limit) => {
    for (const violations of [false, true]) {
      const rows = await expected({ violations });
      const paged = await allPages(db, projectId, { violations }, limit);
      expect(paged).toEqual(rows);
      const keys = paged.map((row) => `${row.runId}/${row.turn}/${row.candidateId}/${row.source}/${row.checkpoint}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it("refuses a cursor it did not give out, naming the cursor", async () => {
    const cursors = [
      "nope",
      Buffer.from(JSON.stringify({ run: "store-a", skip: 0 })).toString("base64url"), // the former format
      Buffer.from(JSON.stringify({ v: "2026-11-01T10:00:00.000Z", id: "x" })).toString("base64url"), // the runs list's
      Buffer.from(JSON.stringify({ s: "2026-02-30T10:00:00.000Z", r: "x", n: 0 })).toString("base64url"),
      Buffer.from(JSON.stringify({ s: "2026-11-01T10:00:00Z", r: "x", n: 0 })).toString("base64url"),
      Buffer.from(JSON.stringify({ s: null, r: "", n: 0 })).toString("base64url"),
      Buffer.from(JSON.stringify({ s: null, r: "x", n: -1 })).toString("base64url"),
      Buffer.from(JSON.stringify({ s: null, r: "x", n: 2 ** 31 })).toString("base64url"),
    ];
    for (const cursor of cursors) {
      const read = listReviewerCandidates(db, projectId, { limit: 5, cursor });
      await expect(read, cursor).rejects.toBeInstanceOf(DomainError);
      await expect(read, cursor).rejects.toMatchObject({ kind: "invalid", path: "cursor" });
    }
  });

  it("replaces a run's rows and counts when it is rebuilt after new events, never adding to them", async () => {
    const options = { runId: "store-grow", seed: 46, turns: 90, startTime: "2026-11-05T10:00:00.000Z" };
    const raw = eventsOf(options);
    const half = raw.slice(0, Math.floor(raw.length / 2));
    const directRows = (events: readonly TRawEvent[]) => {
      const parsed = events.map((e) => ZEvent.parse(e));
      return reviewerRows(parsed, rebuild(parsed));
    };
    const stored = async () => {
      const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: options.runId } } });
      const rows = await allPages(db, projectId, { runId: options.runId }, 500);
      const funnel = await db.prisma.runReviewerFunnel.findUniqueOrThrow({ where: { projectId_runPk: { projectId, runPk: run.id } } });
      const count = await db.prisma.reviewerRow.count({ where: { runPk: run.id } });
      return {
        run,
        rows: rows.map(({ runId: _r, task: _t, agent: _a, model: _m, reviewKey: _k, review: _v, ...row }) => row),
        funnel,
        count,
      };
    };

    await ingest(db, projectId, half);
    expect(await settleRebuilds(db, { projectId: projectId })).toBe(1);
    const before = await stored();
    expect(before.rows).toEqual(directRows(half));
    expect(before.count).toBe(before.rows.length);
    expect(before.funnel.eventCount).toBe(half.length);

    await ingest(db, projectId, raw.slice(half.length));
    expect(await settleRebuilds(db, { projectId: projectId })).toBe(1);
    const after = await stored();
    expect(after.rows).toEqual(directRows(raw));
    expect(after.rows.length).toBeGreaterThan(before.rows.length);
    expect(after.count).toBe(after.rows.length);
    expect(after.funnel.eventCount).toBe(raw.length);
    expect(await getReviewerFunnel(db, projectId, { runId: options.runId })).toEqual(reviewerFunnel(after.rows));
    expect(await settleRebuilds(db, { projectId: projectId })).toBe(0); // up to date: nothing rebuilt

    await db.prisma.run.delete({ where: { projectId_id: { projectId, id: after.run.id } } });
    expect(await db.prisma.reviewerRow.count({ where: { runPk: after.run.id } })).toBe(0);
    expect(await db.prisma.runReviewerFunnel.count({ where: { runPk: after.run.id } })).toBe(0);
  });

  it("goes with its project", async () => {
    const other = (await db.prisma.project.create({ data: { name: "stored-audit-gone" } })).id;
    await ingest(db, other, eventsOf({ runId: "store-gone", seed: 47, turns: 40 }));
    await settleRebuilds(db, { projectId: other });
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId: other, runId: "store-gone" } } });
    expect(await db.prisma.reviewerRow.count({ where: { runPk: run.id } })).toBeGreaterThan(0);
    expect(await db.prisma.reviewerRow.count({ where: { projectId: other } })).toBeGreaterThan(0);
    await db.prisma.project.delete({ where: { id: other } });
    expect(await db.prisma.reviewerRow.count({ where: { runPk: run.id } })).toBe(0);
    expect(await db.prisma.runReviewerFunnel.count({ where: { runPk: run.id } })).toBe(0);
    // The other project's audit is untouched (the run the test before deleted is in neither).
    expect((await allPages(db, projectId, {}, 500)).length).toBe((await expected({})).length);
  });
});
