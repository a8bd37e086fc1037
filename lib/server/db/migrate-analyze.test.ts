import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareDatabases, MIGRATIONS_DIR, migrationsBefore } from "@/lib/server/testing/migrations";
import type { Database } from ".";
import { applyMigrations } from "./migrate";

/** Any migration after the runs table exists. */
const LATER = "20261224000000_trend_rollups";

describe.each(bareDatabases())("applying migrations on a populated $name database", (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 180_000); // PGlite starts slowly on a busy machine
  afterAll(async () => db?.close());

  it("gathers the planner's statistics once any migration ran", async () => {
    await db.withSql((sql) => applyMigrations(sql, migrationsBefore(LATER)));
    const projectId = (await db.prisma.project.create({ data: { name: "analyze" } })).id;
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "runs" ("id", "project_id", "run_id", "task", "agent", "model", "event_count")
       SELECT 'r' || i, $1, 'r' || i, 'task', 'agent-' || (i % 3), 'model', 1 FROM generate_series(1, 500) AS i`,
      projectId,
    );
    const stats = () =>
      db.prisma.$queryRawUnsafe<{ columns: number; rows: number }[]>(
        `SELECT (SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'runs')::int AS "columns",
                (SELECT reltuples FROM pg_class WHERE oid = 'runs'::regclass)::int AS "rows"`,
      );
    const [before] = await stats();
    expect(before.columns).toBe(0);

    expect(await db.withSql((sql) => applyMigrations(sql, MIGRATIONS_DIR))).toContain(LATER);
    const [after] = await stats();
    expect(after.columns).toBeGreaterThan(0);
    expect(after.rows).toBe(500);
  }, 120_000);
});
