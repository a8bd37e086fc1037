import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "./generated/client";
import { acquireDataDirLock } from "./lock";
import { applyMigrations } from "./migrate";
import type { SqlRunner } from "./sql";

/** One open database: Prisma for the app, a raw runner for migrations, and how to close it. */
export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** For people: which database this is (the URL without its password, or the directory). */
  label: string;
  /** Runs the callback on one connection (migrations need BEGIN/COMMIT on the same one). */
  withSql<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A PostgreSQL URL; without it the embedded PGlite database is used. */
  url?: string;
  /** The embedded database's directory (default `./.cuescope/data`, or CUESCOPE_DATA_DIR). */
  dataDir?: string;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /** Recorded in the embedded directory's lock so other tools can reach this process over HTTP. */
  serverUrl?: string;
}

export function defaultDataDir(): string {
  const dir = process.env.CUESCOPE_DATA_DIR ?? ".cuescope/data";
  return dir.startsWith("memory://") ? dir : resolve(dir);
}

/** Opens PostgreSQL when a URL is given (or DATABASE_URL is set), else the embedded PGlite directory. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  const url = options.url ?? process.env.DATABASE_URL;
  const db = url ? await openPostgres(url) : await openPglite(options.dataDir ?? defaultDataDir(), options.serverUrl);
  if (options.migrate !== false) {
    try {
      await db.withSql((sql) => applyMigrations(sql));
    } catch (error) {
      await db.close();
      throw error;
    }
  }
  return db;
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new Pool({ connectionString: url, max: 10 });
  pool.on("error", () => {}); // an idle client's error must not crash the process; queries report it
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    kind: "postgres",
    label: redactUrl(url),
    async withSql(work) {
      const client = await pool.connect();
      try {
        // Serialise migrations between processes sharing one server.
        await client.query("SELECT pg_advisory_lock(727073)");
        try {
          return await work({
            exec: async (sql) => void (await client.query(sql)),
            query: async (sql, params) => (await client.query(sql, params)).rows,
          });
        } finally {
          await client.query("SELECT pg_advisory_unlock(727073)");
        }
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string, serverUrl?: string): Promise<Database> {
  // An in-memory database ("memory://") belongs to this process alone: nothing to lock.
  const release = dataDir.startsWith("memory://") ? () => {} : acquireDataDirLock(dataDir, serverUrl);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir });
  } catch (error) {
    release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    kind: "pglite",
    label: `embedded PGlite at ${dataDir}`,
    withSql: (work) =>
      work({
        exec: async (sql) => void (await pglite.exec(sql)),
        query: async <T,>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
      }),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
      release();
    },
  };
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "PostgreSQL (unparseable DATABASE_URL)";
  }
}
