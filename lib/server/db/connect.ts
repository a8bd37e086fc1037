import { resolve } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg, { Pool } from "pg";
import { PrismaClient } from "./generated/client";
import { CopyBinaryReader, CopyBytes, copyBinaryRows, type CopyRow, type CopySink } from "./copy-binary";
import { acquireDataDirLock } from "./lock";
import { applyMigrations } from "./migrate";
import { RemotePglite } from "./pglite-remote";
import type { SqlRunner } from "./sql";
import { databaseTimeouts, type DatabaseTimeouts } from "./timeouts";
import { env } from "@/lib/server/env";

/** One open database: Prisma for the app, a raw runner for migrations, and how to close it. */
export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  /** The time limits this database was opened with. */
  timeouts: DatabaseTimeouts;
  /** For people: which database this is (the URL without its password, or the directory). */
  label: string;
  /** Runs the callback on one connection (migrations need BEGIN/COMMIT on the same one). */
  withSql<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * One raw statement (or, without values, a script of several) answered pg-style: what the job
   * queue (lib/server/jobs/queue.ts) is given as its connection, so it shares this database's pool
   * or, on PGlite, its one in-process connection.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * The rows of `select` read as binary COPY (copy-binary.ts): each field's bytes as the database
   * sends them, never decoded into a string, for text that is sent on as it is (a download). `select`
   * cannot take parameters (COPY cannot): its values are literals (sqlLiteral). `allocate`: where
   * the fields read from PostgreSQL's messages are copied to (PGlite's are views of its own COPY
   * bytes, never copied, so it is not used there).
   */
  copyRows(select: string, options?: { allocate?: (size: number) => Uint8Array }): Promise<CopyRow[]>;
  /**
   * The whole binary COPY stream of `select` (as copyRows, not read into rows): one buffer of its
   * own, which can be handed to a job thread without a copy (transferred), where the rows are read.
   */
  copyBytes(select: string): Promise<Uint8Array>;
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
  /** Overrides of the time limits otherwise read from the environment (CUESCOPE_DB_*_TIMEOUT_MS). */
  timeouts?: Partial<DatabaseTimeouts>;
}

export function defaultDataDir(): string {
  const dir = env("CUESCOPE_DATA_DIR");
  return dir.startsWith("memory://") ? dir : resolve(dir);
}

/** Opens PostgreSQL when a URL is given (or DATABASE_URL is set), else the embedded PGlite directory. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  const url = options.url ?? env("DATABASE_URL");
  const timeouts = databaseTimeouts(options.timeouts);
  const db = url ? openPostgres(url, timeouts) : await openPglite(options.dataDir ?? defaultDataDir(), timeouts, options.serverUrl);
  if (options.migrate !== false) {
    try {
      await db.withSql((sql) => applyMigrations(sql));
    } catch (error) {
      // Closing waits for connections to end; a stalled one must not keep this failure from being reported.
      await Promise.race([db.close().catch(() => {}), new Promise((done) => setTimeout(done, 1_000).unref())]);
      throw error;
    }
  }
  return db;
}

/**
 * A pg client that gives up its connection when a query got no answer in time (pg's
 * `query_timeout`): pg leaves the unanswered query on the connection, so anything sent on it
 * afterwards (the transaction's ROLLBACK, the next request's query) would wait behind it. Ending it
 * answers those at once, and the pool replaces it with a fresh connection.
 */
class GuardedClient extends pg.Client {
  // pg's query() has many overloads; this one only watches the outcome.
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last] as (error: unknown, result: unknown) => void;
      args[last] = (error: unknown, result: unknown) => {
        this.giveUpOnTimeout(error);
        callback(error, result);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      return (result as Promise<unknown>).catch((error: unknown) => {
        this.giveUpOnTimeout(error);
        throw error;
      }) as never;
    }
    return result as never;
  }

  private giveUpOnTimeout(error: unknown): void {
    if (error instanceof Error && error.message === "Query read timeout") void this.end().catch(() => {});
  }
}

/**
 * A node-postgres query (a "submittable") that runs a `COPY … TO STDOUT WITH (FORMAT binary)` and
 * hands its CopyData messages as they arrive to `reader` (rows of bytes, or the stream's bytes:
 * node-postgres' own queries would decode every text value into a string; it has no COPY of its
 * own). `callback` is called once: with what the reader made of it after the statement's end, or
 * with its error.
 */
class CopyOut<T> {
  callback?: (error: Error | null, result?: T) => void;
  private failure: Error | null = null;
  private settled = false;

  constructor(
    private readonly text: string,
    private readonly reader: CopySink<T>,
  ) {}

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    if (this.failure) return;
    try {
      this.reader.push(message.chunk);
    } catch (error) {
      this.failure = error as Error;
    }
  }

  handleError(error: Error): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    if (this.failure) return this.settle(this.failure);
    let result: T;
    try {
      result = this.reader.finish();
    } catch (error) {
      return this.settle(error as Error);
    }
    this.settle(null, result);
  }

  // A COPY answers none of these; node-postgres calls them on whatever query is active.
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handleRowDescription(): void {
    this.failure ??= new Error("COPY answered rows");
  }
  handleDataRow(): void {}
  handlePortalSuspended(): void {}

  private settle(error: Error | null, result?: T): void {
    if (this.settled) return;
    this.settled = true;
    this.callback?.(error, result);
  }
}

function openPostgres(url: string, timeouts: DatabaseTimeouts): Database {
  const pool = new Pool({
    connectionString: url,
    max: 10,
    Client: GuardedClient,
    // Connecting (TCP + login) and waiting for a free pooled connection.
    connectionTimeoutMillis: timeouts.connectMs,
    // Sent at login, so they hold for every statement on the connection, in and out of transactions.
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // Client side: a stalled socket (the server cannot even be asked to cancel) still ends the wait.
    query_timeout: timeouts.queryMs || undefined,
    // Notice dead peers on idle connections; an idle connection is closed after 30 s anyway.
    keepAlive: true,
    idleTimeoutMillis: 30_000,
  });

  pool.on("error", () => {}); // an idle client's error must not crash the process; queries report it
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const copyOut = async <T>(select: string, reader: CopySink<T>): Promise<T> => {
    const client = await pool.connect();
    let failure: unknown;
    try {
      return await new Promise<T>((resolve, reject) => {
        const copy = new CopyOut(`COPY (${select}) TO STDOUT WITH (FORMAT binary)`, reader);
        copy.callback = (error, result) => (error ? reject(error) : resolve(result!));
        client.query(copy);
      });
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      client.release(failure instanceof Error ? failure : undefined); // a failed connection is not reused
    }
  };
  return {
    prisma,
    kind: "postgres",
    timeouts,
    label: redactUrl(url),
    async withSql(work) {
      const client = await pool.connect();
      // Migrations may run longer than requests' statements: their own limit, on this connection only.
      const limit = timeouts.migrationMs;
      const run = (text: string, values?: unknown[]) =>
        client.query({ text, values, query_timeout: limit > 0 ? limit + 2_000 : undefined } as pg.QueryConfig);
      let failure: unknown;
      try {
        await run(`SET statement_timeout = ${limit}`);
        // Serialise migrations between processes sharing one server: wait for another's migrations
        // as long as a migration may take; the migrations' own locks keep the usual lock timeout.
        await run(`SET lock_timeout = ${limit}`);
        await run("SELECT pg_advisory_lock(727073)");
        await run("RESET lock_timeout");
        try {
          return await work({
            exec: async (sql) => void (await run(sql)),
            query: async (sql, params) => (await run(sql, params)).rows,
          });
        } finally {
          await run("SELECT pg_advisory_unlock(727073)");
          await run("RESET statement_timeout");
        }
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        client.release(failure instanceof Error ? failure : undefined); // a failed connection is not reused
      }
    },
    async executeSql(text, values) {
      return pool.query(text, values);
    },
    copyRows: (select, options) => copyOut(select, new CopyBinaryReader({ allocate: options?.allocate })),
    copyBytes: (select) => copyOut(select, new CopyBytes()),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * The embedded database runs on a thread of its own (pglite-remote.ts), each statement synchronously
 * inside WebAssembly: there is no network to stall and nothing can interrupt a running statement
 * (PGlite accepts `statement_timeout` but never fires it — no signals in WASM). What can be bounded
 * is waiting for it: getDb() bounds the wait for opening, and Prisma's transaction timeouts bound
 * waiting for the one connection.
 */
async function openPglite(dataDir: string, timeouts: DatabaseTimeouts, serverUrl?: string): Promise<Database> {
  // An in-memory database ("memory://") belongs to this process alone: nothing to lock.
  const release = dataDir.startsWith("memory://") ? () => {} : acquireDataDirLock(dataDir, serverUrl);
  let remote: RemotePglite;
  try {
    remote = await RemotePglite.start(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: remote.prismaAdapter() });
  return {
    prisma,
    kind: "pglite",
    timeouts,
    label: `embedded PGlite at ${dataDir}`,
    withSql: (work) =>
      work({
        exec: async (sql) => void (await remote.exec(sql)),
        query: async <T>(sql: string, params?: unknown[]) => (await remote.query<T>(sql, params)).rows,
      }),
    async executeSql(text, values) {
      if (values && values.length > 0) return remote.query(text, values);
      const results = await remote.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    // The bytes are this read's own (handed over by the database's thread): the rows' fields are views of them, not copies.
    copyRows: async (select) => copyBinaryRows([await remote.copy(select)], { owned: true }),
    copyBytes: (select) => remote.copy(select),
    async close() {
      await prisma.$disconnect();
      try {
        await remote.close();
      } finally {
        release();
      }
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
