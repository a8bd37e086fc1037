import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BACKFILLS } from "./backfills";
import type { SqlRunner } from "./sql";
import { env } from "@/lib/server/env";

/**
 * Applies committed Prisma-layout migrations (prisma/migrations/<name>/migration.sql) that are not
 * applied yet, and records them in `_prisma_migrations` the way `prisma migrate deploy` does, so
 * either tool can take over. Works on PGlite and PostgreSQL alike; no native engine needed. Then
 * runs the back-fills of the applied migrations (lib/server/db/backfills.ts): what their SQL cannot
 * compute (a comment's rendered HTML), each filling only what is still empty.
 */
export async function applyMigrations(sql: SqlRunner, migrationsDir = defaultMigrationsDir()): Promise<string[]> {
  await sql.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const applied = new Map(
    (
      await sql.query<{ migration_name: string; checksum: string }>(
        `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )
    ).map((row) => [row.migration_name, row.checksum]),
  );

  const done: string[] = [];
  for (const migration of listMigrations(migrationsDir)) {
    const checksum = createHash("sha256").update(migration.sql).digest("hex");
    const before = applied.get(migration.name);
    if (before !== undefined) {
      if (before !== checksum) {
        throw new Error(`migration ${migration.name} was changed after it was applied (checksum differs); add a new migration instead`);
      }
      continue;
    }
    await sql.exec("BEGIN");
    try {
      await sql.exec(migration.sql);
      await sql.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at)
         VALUES ($1, $2, now(), $3, 1, now())`,
        [randomUUID(), checksum, migration.name],
      );
      await sql.exec("COMMIT");
    } catch (error) {
      await sql.exec("ROLLBACK");
      throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
    }
    done.push(migration.name);
    applied.set(migration.name, checksum);
  }
  for (const backfill of BACKFILLS) if (applied.has(backfill.migration)) await backfill.run(sql);
  // A migration may make or fill tables and indexes, and the planner picks indexes by the tables'
  // statistics: without them (a new table, or autovacuum off) a sort may skip its index (the runs
  // list's violations sort: 52 ms instead of 4 at 1M events). ANALYZE samples each table.
  if (done.length > 0) await sql.exec("ANALYZE");
  return done;
}

export function defaultMigrationsDir(): string {
  return env("CUESCOPE_MIGRATIONS_DIR") ?? join(process.cwd(), "prisma", "migrations");
}

export function listMigrations(dir: string): { name: string; sql: string }[] {
  if (!existsSync(dir)) throw new Error(`no migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name, "migration.sql"), "utf8") }));
}
