/**
 * Run by `npm start` before the server: applies pending migrations to the database the server
 * will use and says which one it is. A new, empty embedded database gets the demo project, a demo
 * key (printed, and kept in .cuescope/demo-key) and the demo runs. A DATABASE_URL database never
 * gets demo data unless `npm run demo` is asked for it.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createKey } from "@/lib/server/auth/keys";
import { openDatabase, refreshStatistics, type Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { createSetupLink } from "@/lib/server/people/members";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { loadDemo } from "./lib/load-demo";
import { databaseStore, loadDemoExperiment } from "./lib/load-demo-experiment";
import { loadDemoReviews } from "./lib/load-demo-reviews";
import { loadDemoAlerts } from "./lib/load-demo-alerts";
import { authenticateKey } from "@/lib/server/auth/keys";
import { demoKeyPath, readDemoKey } from "@/lib/server/auth/demo-key";

async function main(): Promise<void> {
  const db = await openDatabase();
  try {
    console.error(`database: ${db.label} (migrations applied)`);
    await printSetupLink(db);
    if (db.kind !== "pglite") return;
    if ((await db.prisma.project.count()) === 0) {
      const { secret } = await createKey(db, "demo", "demo key");
      const path = demoKeyPath();
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `${secret}\n`);
      chmodSync(path, 0o600);
      const project = await db.prisma.project.findUniqueOrThrow({ where: { name: "demo" } });
      const { errors } = await loadDemo((batch) => ingestBatch(db, project.id, batch));
      if (errors > 0) throw new Error(`${errors} demo events were rejected; the demo generator and the contracts disagree`);
      const experiment = await loadDemoExperiment(databaseStore(db, await authenticateKey(db, secret)), (batch) =>
        ingestBatch(db, project.id, batch),
      );
      if (experiment.errors > 0) throw new Error(`${experiment.errors} demo experiment events were rejected`);
      console.error(`demo experiment: ${experiment.runs} runs`);
      // Rebuilt now, so the demo's decisions and Reviewer audit are stored before the first page asks.
      console.error(`rebuilt ${await settleRebuilds(db, { projectId: project.id })} demo runs`);
      console.error(`demo reviews: ${await loadDemoReviews(db, await authenticateKey(db, secret))} verdicts`);
      // Made from the command line (no key: the audit log's COMMAND_LINE), after the rebuild whose rollups they read.
      const alerts = await loadDemoAlerts(db, { projectId: project.id, project: project.name });
      if (alerts) {
        console.error(
          `demo alerts: ${alerts.rules} rules, ${alerts.alerts} alerts (${alerts.open} open), ${alerts.deliveries} webhook deliveries (a demo log: nothing sent)`,
        );
      }
      await refreshStatistics(db); // the planner's statistics of the tables the demo filled
    }
    const key = readDemoKey();
    if (key) console.error(`demo API key (project "demo"): ${key}`);
  } finally {
    await db.close();
  }
}

/**
 * While nobody has an account, a new one-time link for the first administrator (README, "Team
 * setup"): only whoever can read this server's output can claim the server.
 */
async function printSetupLink(db: Database): Promise<void> {
  const link = await createSetupLink(db);
  if (!link) return;
  console.error(`first administrator: open ${link.url}`);
  console.error(`  (works once, until ${link.expiresAt.toISOString()}; a restart prints a new one and the old one stops working)`);
  const file = env("CUESCOPE_SETUP_LINK_FILE");
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${link.url}\n`, { mode: 0o600 });
  }
}

main().catch((error) => {
  console.error(`start: ${(error as Error).message}`);
  process.exit(1);
});
