import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Database } from "@/lib/server/db";
import { listMigrations } from "@/lib/server/db/migrate";
import { env } from "@/lib/server/env";
import { createScratchPostgres, tempDataDir } from "./databases";

/** The committed migrations. */
export const MIGRATIONS_DIR = join(__dirname, "..", "..", "..", "prisma", "migrations");

/** Unmigrated databases of each kind (PGlite; PostgreSQL when DATABASE_URL is set), to migrate step by step. */
export function bareDatabases(): { name: string; open(): Promise<Database> }[] {
  const kinds = [{ name: "pglite", open: () => openDatabase({ url: "", dataDir: tempDataDir(), migrate: false }) }];
  const url = env("DATABASE_URL");
  if (url) {
    kinds.push({
      name: "postgres",
      async open() {
        const scratch = await createScratchPostgres(url, "cuescope_keys");
        const db = await openDatabase({ url: scratch.url, migrate: false });
        return { ...db, close: () => db.close().then(() => scratch.drop()) };
      },
    });
  }
  return kinds;
}

/** A folder with the committed migrations before `name` only (or up to it, `name` included). */
export function migrationsBefore(name: string, inclusive = false): string {
  const dir = mkdtempSync(join(tmpdir(), "cuescope-migrations-"));
  for (const m of listMigrations(MIGRATIONS_DIR))
    if (m.name < name || (inclusive && m.name === name)) cpSync(join(MIGRATIONS_DIR, m.name), join(dir, m.name), { recursive: true });
  return dir;
}
