import { openDatabase, type Database } from "./connect";
import { databaseTimeouts, withDeadline } from "./timeouts";
import { env } from "@/lib/server/env";

export { openDatabase, defaultDataDir, redactUrl, type Database, type OpenOptions } from "./connect";
export { DataDirLockedError, readLiveHolder, type LockHolder } from "./lock";
export { DatabaseTimeoutError, errorCodes, isTransactionConflict, isTransientDatabaseError, isUniqueViolation } from "./errors";
export { applyMigrations } from "./migrate";
export { refreshStatistics } from "./statistics";
export { databaseTimeouts, withDeadline, TIMEOUT_ENV, type DatabaseTimeouts } from "./timeouts";

const globalForDb = globalThis as unknown as { cuescopeDb?: Promise<Database> };

/**
 * The server's one database, opened on first use and reused (across hot reloads in development):
 * written to and read back from globalThis. A caller waits for the opening (connecting, migrations)
 * at most CUESCOPE_DB_OPEN_TIMEOUT_MS, then gets a DatabaseTimeoutError (503); the opening goes on,
 * bounded by its own timeouts, and later callers share it. A failed opening is retried by the next call.
 */
export function getDb(): Promise<Database> {
  const opening = (globalForDb.cuescopeDb ??= openDatabase({ serverUrl: env("CUESCOPE_SERVER_URL") }).catch((error) => {
    globalForDb.cuescopeDb = undefined; // let the next request try again (database down, say)
    throw error;
  }));
  return withDeadline(opening, databaseTimeouts().openMs, "opening the database");
}

/** Makes this process's server code use an already open database (tests, scripts that host routes). */
export function useDatabase(db: Database): void {
  globalForDb.cuescopeDb = Promise.resolve(db);
}
