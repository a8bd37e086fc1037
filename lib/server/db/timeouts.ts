import { env, type EnvName, type EnvSource } from "@/lib/server/env";
import { DatabaseTimeoutError } from "./errors";

/**
 * Time limits on every database call, in milliseconds (0 turns one off). A call that runs into one
 * fails with a transient database error, which the API answers as 503 with Retry-After.
 */
export interface DatabaseTimeouts {
  /** Opening a TCP connection and logging in, and waiting for a free pooled connection (PostgreSQL). */
  connectMs: number;
  /** Server side: PostgreSQL cancels a statement running longer (`statement_timeout`). */
  statementMs: number;
  /** Server side: a statement waiting this long for a lock gives up (`lock_timeout`). */
  lockMs: number;
  /** Server side: a session idle inside an open transaction this long is ended (`idle_in_transaction_session_timeout`). */
  idleInTransactionMs: number;
  /**
   * Client side: no answer to a query within this time and the connection is given up (pg
   * `query_timeout`), so a stalled network is noticed even when the server cannot cancel anything.
   * Default: the statement timeout plus 2 s, so the server's own cancel normally comes first.
   */
  queryMs: number;
  /** How long a request waits for the database to open (first connection and migrations) before 503. */
  openMs: number;
  /** Statement timeout while migrations run at start-up (a migration may rewrite a large table). */
  migrationMs: number;
}

/** The environment variable of each limit (defaults and validation: lib/server/env.ts). */
export const TIMEOUT_ENV = {
  connectMs: "CUESCOPE_DB_CONNECT_TIMEOUT_MS",
  statementMs: "CUESCOPE_DB_STATEMENT_TIMEOUT_MS",
  lockMs: "CUESCOPE_DB_LOCK_TIMEOUT_MS",
  idleInTransactionMs: "CUESCOPE_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS",
  queryMs: "CUESCOPE_DB_QUERY_TIMEOUT_MS",
  openMs: "CUESCOPE_DB_OPEN_TIMEOUT_MS",
  migrationMs: "CUESCOPE_DB_MIGRATION_TIMEOUT_MS",
} as const satisfies Record<keyof DatabaseTimeouts, EnvName>;

/** The timeouts from the environment (invalid values are reported and replaced by the default), with overrides. */
export function databaseTimeouts(overrides: Partial<DatabaseTimeouts> = {}, source: EnvSource = process.env): DatabaseTimeouts {
  const read = (key: keyof DatabaseTimeouts) => env(TIMEOUT_ENV[key], source);
  const statementMs = overrides.statementMs ?? read("statementMs")!;
  return {
    connectMs: overrides.connectMs ?? read("connectMs")!,
    statementMs,
    lockMs: overrides.lockMs ?? read("lockMs")!,
    idleInTransactionMs: overrides.idleInTransactionMs ?? read("idleInTransactionMs")!,
    queryMs: overrides.queryMs ?? read("queryMs") ?? (statementMs > 0 ? statementMs + 2_000 : 0),
    openMs: overrides.openMs ?? read("openMs")!,
    migrationMs: overrides.migrationMs ?? read("migrationMs")!,
  };
}

/**
 * The promise's outcome, or a DatabaseTimeoutError after `ms` (0 = wait as long as it takes).
 * The work itself is not cancelled: it must be bounded on its own; this bounds the caller's wait.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0)) return work;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(`${what} took longer than ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
