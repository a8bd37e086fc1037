import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_SORTS, type TRunListItem, type TRunSort } from "@/lib/contracts";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";

import { listReviewerCandidates } from "@/lib/server/reviewer/list-candidates";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { turnEvents } from "@/lib/server/testing/events";
import { routeOf } from "@/lib/server/http/api";
import { runsApi } from "@/lib/endpoints";

const listRunsRoute = routeOf(runsApi.list);

/** Generated runs with every kind of anomaly (findings, drops, Reviewer violations) and some without. */
const RUNS = [
  { runId: "calm-1", seed: 1, turns: 40, anomalies: false },
  { runId: "rough-2", seed: 2, turns: 80, anomalies: true },
  { runId: "rough-3", seed: 3, turns: 60, anomalies: true },
  { runId: "calm-4", seed: 4, turns: 30, anomalies: false },
  { runId: "rough-5", seed: 5, turns: 70, anomalies: true },
];

describe.each(testDatabases())("runs list sorts and figure filters on $name", (kind) => {
  let db: Database;
  let key: string;
  let projectId: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "list-sorts")).secret;
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "list-sorts" } })).id;
    for (const [n, run] of RUNS.entries()) {
      const startTime = new Date(Date.UTC(2026, 10, 20 + n, 9)).toISOString();
      const { events } = generateEtfRun({ runId: run.runId, seed: run.seed, turns: run.turns, anomalies: run.anomalies, startTime });
      expect(
        (
          await ingestBatch(
            db,
            projectId,
            events.map((e) => ({ ...e, id: `${run.runId}:${e.id}` })),
          )
        ).summary.error,
      ).toBe(0);
    }
    // A run that cannot be rebuilt (no run.started): no figures, so it sorts last either way.
    expect((await ingestBatch(db, projectId, turnEvents("no-start", 0, 1, 100))).summary.error).toBe(0);
    await settleRebuilds(db, { projectId });
  }, 240_000);
  afterAll(async () => db?.close());

  const page = async (query: Record<string, string>) => {
    const url = `http://cuescope.test/api/v1/runs?${new URLSearchParams(query)}`;
    const response = await listRunsRoute(new Request(url, { headers: { authorization: `Bearer ${key}` } }));
    return { status: response.status, body: await response.json() };
  };

  /** Every run of the list, page by page (2 a page), following nextCursor. */
  const all = async (query: Record<string, string>): Promise<TRunListItem[]> => {
    const runs: TRunListItem[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const { status, body } = await page({ ...query, limit: "2", ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      runs.push(...body.runs);
      cursor = body.nextCursor;
    }
    return runs;
  };

  it("stores each rebuilt run's figures on its row, as its summary says", async () => {
    const runs = await all({});
    const rows = await db.prisma.run.findMany({ where: { projectId } });
    for (const item of runs) {
      const row = rows.find((r) => r.runId === item.runId)!;
      if (item.runId === "no-start") {
        expect(row).toMatchObject({ findingCount: null, droppedCount: null, dropRate: null, reviewerViolations: null, findingCodes: [] });
        continue;
      }
      expect(row.findingCount).toBe(item.findings);
      expect(row.droppedCount).toBe(item.reminders.dropped);
      expect(row.dropRate).toBe(item.dropRate);
      expect(row.findingCodes).toEqual(Object.keys(item.findingsByCode).sort());
      expect(row.reviewerViolations).toBe(item.reviewerViolations);
    }
    // The data set is worth sorting: figures differ between runs, some runs have drops and violations.
    expect(new Set(runs.map((r) => r.findings)).size).toBeGreaterThan(2);
    expect(runs.some((r) => r.reminders.dropped > 0)).toBe(true);
    expect(runs.some((r) => (r.reviewerViolations ?? 0) > 0)).toBe(true);
    expect(runs.some((r) => r.reviewerViolations === 0)).toBe(true);
  });

  const value: Record<string, (run: TRunListItem, row: { findingCount: number | null; droppedCount: number | null }) => number | null> = {
    findings: (_, row) => row.findingCount,
    dropped: (_, row) => row.droppedCount,
    dropRate: (run) => run.dropRate,
  };

  it.each(RUN_SORTS.filter((s) => /findings|dropped|dropRate/.test(s)))(
    "sort=%s pages through every run once, in order, runs without figures last",
    async (sort: TRunSort) => {
      const runs = await all({ sort });
      expect(runs.map((r) => r.runId).sort()).toEqual([...RUNS.map((r) => r.runId), "no-start"].sort());
      expect(runs.at(-1)!.runId).toBe("no-start");
      const rows = await db.prisma.run.findMany({ where: { projectId } });
      const values = runs.slice(0, -1).map((run) =>
        value[sort.replace("-", "")](
          run,
          rows.find((r) => r.runId === run.runId)!,
        ),
      );
      const descending = sort.startsWith("-");
      const nonNull = values.filter((v): v is number => v !== null);
      expect(nonNull).toEqual([...nonNull].sort((a, b) => (descending ? b - a : a - b)));
      // null drop rates (no reminders) come after every number, before nothing else.
      expect(values.slice(nonNull.length).every((v) => v === null)).toBe(true);
      // One page of 50 agrees with the pages of 2.
      expect((await page({ sort })).body.runs.map((r: TRunListItem) => r.runId)).toEqual(runs.map((r) => r.runId));
    },
  );

  it("filters by Reviewer violations, drops and finding code, and the violations agree with the Reviewer audit", async () => {
    const everyRun = await all({});
    const withViolations = (await all({ hasViolations: "1" })).map((r) => r.runId).sort();
    const audit = await listReviewerCandidates(db, projectId, { violations: true, limit: 500 });
    expect(withViolations).toEqual([...new Set(audit.rows.map((r) => r.runId))].sort());
    expect(withViolations.length).toBeGreaterThan(0);

    const withDrops = (await all({ hasDrops: "true" })).map((r) => r.runId).sort();
    expect(withDrops).toEqual(
      everyRun
        .filter((r) => r.reminders.dropped > 0 && r.runId !== "no-start")
        .map((r) => r.runId)
        .sort(),
    );

    const code = Object.keys(everyRun.find((r) => r.runId === "rough-2")!.findingsByCode)[0];
    const withCode = (await all({ finding: code, sort: "-findings" })).map((r) => r.runId).sort();
    expect(withCode).toEqual(
      everyRun
        .filter((r) => code in r.findingsByCode)
        .map((r) => r.runId)
        .sort(),
    );
    expect(withCode.length).toBeLessThan(everyRun.length);
    expect((await all({ hasViolations: "0" })).length).toBe(everyRun.length);
  });

  it("answers 400 naming the field for a bad sort, flag, code or a cursor of another sort", async () => {
    expect((await page({ sort: "-drops" })).body.error).toMatchObject({ path: "sort" });
    expect((await page({ hasDrops: "yes" })).body.error).toMatchObject({ path: "hasDrops" });
    expect((await page({ finding: "NOT_A_CODE" })).body.error).toMatchObject({ path: "finding" });
    const first = await page({ sort: "-started", limit: "1" });
    const wrong = await page({ sort: "-dropRate", cursor: first.body.nextCursor });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ path: "cursor" });
    const rate = await page({ sort: "dropRate", limit: "1" });
    const forged = Buffer.from(JSON.stringify({ v: 7, id: "x" })).toString("base64url");
    expect((await page({ sort: "dropRate", cursor: forged })).status).toBe(400);
    expect((await page({ sort: "dropRate", cursor: rate.body.nextCursor })).status).toBe(200);
  });
});
