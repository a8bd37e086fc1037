import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { rebuildLoadedRuns } from "./target";

describe.each(testDatabases())("rebuildLoadedRuns on $name", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000); // PGlite starts slowly on a busy machine
  afterAll(async () => db?.close());

  it("leaves the planner's statistics of what a direct load wrote (npm run import, npm run demo)", async () => {
    const projectId = (await db.prisma.project.create({ data: { name: "import" } })).id;
    const events = generateEtfRun({ runId: "imported", seed: 3, turns: 40 }).events;
    await ingestBatch(db, projectId, events);
    const eventStats = async () =>
      (
        await db.prisma.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS "n" FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'events'`,
        )
      )[0].n;
    // The migrations ran on an empty database. (PGlite has no autovacuum; PostgreSQL's may analyse on its own.)
    if (kind.name === "pglite") expect(await eventStats()).toBe(0);

    const sink = (batch: readonly unknown[]) => ingestBatch(db, projectId, batch);
    await rebuildLoadedRuns({ kind: "direct", label: "test", db, projectId, project: "p", sink, close: async () => {} });
    expect(await db.prisma.runDecisionsCache.count({ where: { projectId } })).toBe(1);
    expect(await eventStats()).toBeGreaterThan(0);
  }, 120_000);
});
