import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "pg";
import { openDatabase, type Database } from "@/lib/server/db";
import { env } from "@/lib/server/env";

/** A database kind the integration suites run against. */
export interface TestDatabase {
  name: "pglite" | "postgres";
  /** A fresh, migrated, empty database of this kind; closing it also removes it (Postgres). */
  open(): Promise<Database>;
}

/**
 * PGlite always; real PostgreSQL too when DATABASE_URL is set (as .ci/run does). Each open()
 * makes a database of its own, so suites never see each other's rows.
 */
export function testDatabases(): TestDatabase[] {
  const kinds: TestDatabase[] = [{ name: "pglite", open: () => openDatabase({ url: "", dataDir: tempDataDir() }) }];
  const url = env("DATABASE_URL");
  if (url) kinds.push({ name: "postgres", open: () => openScratchPostgres(url) });
  return kinds;
}

export function tempDataDir(): string {
  return join(mkdtempSync(join(tmpdir(), "cuescope-pglite-")), "data");
}

async function openScratchPostgres(adminUrl: string): Promise<Database> {
  const scratch = await createScratchPostgres(adminUrl, "cuescope_test");
  const db = await openDatabase({ url: scratch.url });
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}

/** A PostgreSQL database made for one suite: its URL, and drop() to remove it (connections and all). */
export interface ScratchPostgres {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database named `prefix` plus a random suffix on the server of `adminUrl`
 * (unmigrated: openDatabase migrates it), connecting as that URL's user.
 */
export async function createScratchPostgres(adminUrl: string, prefix: string): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** Runs `work` on a connection to `url`, closed afterwards. */
async function withAdmin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
