/**
 * `npm run worker`: a process that only works the job queue (rebuilds, what-if replays) of the
 * PostgreSQL database in DATABASE_URL — as many as you like, on as many machines, beside web
 * servers started with CUESCOPE_WORKERS=0 (see docs/deployment.md). The embedded PGlite database
 * belongs to the one process that opened it, so there `npm start` works the queue itself and this
 * script refuses to run.
 */
import { openDatabase } from "@/lib/server/db";
import { env } from "@/lib/server/env";
import { startBackground } from "@/lib/server/background/background";

async function main(): Promise<number> {
  if (!env("DATABASE_URL")) {
    process.stderr.write(
      "worker: DATABASE_URL is not set. The embedded database is worked by `npm start` itself (one process owns it);\n" +
        "separate workers need PostgreSQL: DATABASE_URL=postgresql://… npm run worker\n",
    );
    return 2;
  }
  const workers = Math.max(1, env("CUESCOPE_WORKERS"));
  const db = await openDatabase();
  const background = await startBackground(db, { workers });
  console.error(
    `worker: working the job queue of ${db.label} (${workers} job(s) of each kind at once, ${background.threads.size} thread(s))`,
  );
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  console.error("worker: stopping: letting running jobs finish ...");
  await background.close();
  await db.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("worker:", error);
    process.exit(1);
  },
);
