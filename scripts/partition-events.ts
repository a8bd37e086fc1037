/**
 * `DATABASE_URL=postgresql://… npm run db:partition-events [-- --ahead MONTHS]`: makes events a
 * table partitioned by month of arrival (prisma/optional/partition-events-by-time, once), then
 * creates the monthly partitions up to MONTHS ahead (default 3). Run it again monthly (cron) to keep
 * partitions ahead; docs/deployment.md has when to apply it and how to drop old months.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/server/db";
import { eventPartitions, partitionEventsByTime } from "@/lib/server/db/partition-events";
import { env } from "@/lib/server/env";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { ahead: { type: "string", default: "3" } } });
  const ahead = Number(values.ahead);
  if (!Number.isInteger(ahead) || ahead < 0 || ahead > 120) {
    console.error("usage: npm run db:partition-events [-- --ahead MONTHS]   (MONTHS: 0–120, default 3)");
    return 2;
  }
  if (!env("DATABASE_URL")) {
    console.error("partitioning events is for PostgreSQL servers: set DATABASE_URL (the embedded database keeps the plain layout)");
    return 2;
  }
  const db = await openDatabase();
  try {
    const changed = await partitionEventsByTime(db);
    console.error(
      changed ? `events are now partitioned by month of received_at in ${db.label}` : `events were partitioned already in ${db.label}`,
    );
    const created = await db.withSql((sql) =>
      sql.query<{ name: string }>(`SELECT "events_create_partitions"(now(), now() + make_interval(months => $1::int)) AS name`, [ahead]),
    );
    console.error(created.length ? `created ${created.map((r) => r.name).join(", ")}` : `no partition missing up to ${ahead} months ahead`);
    console.log((await db.withSql(eventPartitions)).join("\n"));
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
