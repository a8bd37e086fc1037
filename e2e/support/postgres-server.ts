/**
 * The e2e suite's second server: the production server on a fresh PostgreSQL database of its own
 * (`cuescope_e2e_<port>`, dropped and created anew), with an API key for project "e2e" written to
 * `<dir>/key`. Started by playwright.config.ts only when DATABASE_URL is set, so the API specs in
 * e2e/api run against PGlite and real PostgreSQL alike.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { createKey } from "@/lib/server/auth/keys";
import { openDatabase } from "@/lib/server/db";

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  const port = process.env.PORT;
  const dir = process.env.E2E_STATE_DIR;
  if (!adminUrl || !port || !dir) throw new Error("DATABASE_URL, PORT and E2E_STATE_DIR are required");
  const name = `cuescope_e2e_${port}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;

  const db = await openDatabase({ url: url.toString() });
  const { secret } = await createKey(db, "e2e", "e2e key");
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "key"), `${secret}\n`);

  const server = spawn("bash", ["scripts/start.sh"], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: url.toString(), CUESCOPE_BUILD: "never" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error) => {
  console.error(`e2e postgres server: ${(error as Error).message}`);
  process.exit(1);
});
