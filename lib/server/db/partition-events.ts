import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "./connect";
import type { SqlRunner } from "./sql";

/** The opt-in migration that partitions events by month of arrival (docs/deployment.md). */
export function partitionEventsFile(): string {
  return join(process.cwd(), "prisma", "optional", "partition-events-by-time", "migration.sql");
}

/** Whether "events" is a partitioned table (the opt-in migration was applied). */
export async function eventsArePartitioned(sql: SqlRunner): Promise<boolean> {
  const rows = await sql.query<{ relkind: string }>(`SELECT relkind::text AS relkind FROM pg_class WHERE oid = to_regclass('"events"')`);
  return rows[0]?.relkind === "p";
}

/**
 * Applies prisma/optional/partition-events-by-time/migration.sql in one transaction, on the
 * migrations' connection (their statement timeout, their advisory lock). Answers false, changing
 * nothing, when events are partitioned already. PostgreSQL servers only: the embedded database
 * is one process's small database, and its layout stays the committed one.
 */
export async function partitionEventsByTime(db: Database, file = partitionEventsFile()): Promise<boolean> {
  if (db.kind !== "postgres") {
    throw new Error(`partitioning events is for PostgreSQL servers (DATABASE_URL); ${db.label} keeps the plain layout`);
  }
  const script = readFileSync(file, "utf8");
  return db.withSql(async (sql) => {
    if (await eventsArePartitioned(sql)) return false;
    await sql.exec("BEGIN");
    try {
      await sql.exec(script);
      await sql.exec("COMMIT");
    } catch (error) {
      await sql.exec("ROLLBACK");
      throw new Error(`partitioning events failed, nothing changed: ${(error as Error).message}`);
    }
    return true;
  });
}

/** The monthly partitions of events (and the default one), in name order. */
export async function eventPartitions(sql: SqlRunner): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass('"events"') ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}
