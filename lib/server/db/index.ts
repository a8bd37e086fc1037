import { openDatabase, type Database } from "./connect";

export { openDatabase, defaultDataDir, redactUrl, type Database, type OpenOptions } from "./connect";
export { DataDirLockedError, readLiveHolder, type LockHolder } from "./lock";
export { DatabaseTimeoutError, errorCodes, isTransactionConflict, isTransientDatabaseError } from "./errors";
export { applyMigrations } from "./migrate";

const globalForDb = globalThis as unknown as { cuescopeDb?: Promise<Database> };

/**
 * The server's one database, opened on first use and reused (across hot reloads in development):
 * written to and read back from globalThis.
 */
export function getDb(): Promise<Database> {
  globalForDb.cuescopeDb ??= openDatabase({ serverUrl: process.env.CUESCOPE_SERVER_URL }).catch((error) => {
    globalForDb.cuescopeDb = undefined; // let the next request try again (database down, say)
    throw error;
  });
  return globalForDb.cuescopeDb;
}

/** Makes this process's server code use an already open database (tests, scripts that host routes). */
export function useDatabase(db: Database): void {
  globalForDb.cuescopeDb = Promise.resolve(db);
}
