import type { Database } from "./connect";

/**
 * Gathers the planner's statistics of every table (ANALYZE), after work that changes them at once:
 * migrations (applyMigrations does it), and loads that write many rows straight into the database
 * (`npm run import`, `npm run demo`, `npm start`'s demo data). The planner picks indexes by these
 * statistics; without fresh ones a sort may skip its index (the runs list's violations sort: 52 ms
 * instead of 4 at 1M events). On PostgreSQL autovacuum keeps them fresh afterwards and must be on
 * (docs/operations.md). Runs on the migrations' connection, under their statement limit.
 */
export async function refreshStatistics(db: Database): Promise<void> {
  await db.withSql((sql) => sql.exec("ANALYZE"));
}
