import { DataDirLockedError } from "./lock";

/**
 * SQLSTATE classes and codes that mean "try again": the database was busy, cancelled the statement
 * (statement or lock timeout), chose this transaction as a deadlock victim, or could not be reached.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const TRANSIENT_SQLSTATES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available
  "57014", // query_canceled (statement_timeout)
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53000", // insufficient_resources
  "53100", // disk_full
  "53200", // out_of_memory
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "08007", // connection exceptions
  "25P03", // idle_in_transaction_session_timeout
]);

/**
 * Prisma's own codes for the same situations: P1001 cannot reach, P1002 timed out reaching, P1008
 * operation timed out, P1017 connection closed, P2024 pool timeout, P2028 transaction API error
 * (could not start in time, or expired), P2034 write conflict or deadlock; from driver adapters:
 * P1018 transaction already closed, P2037 too many connections.
 */
const TRANSIENT_PRISMA = new Set(["P1001", "P1002", "P1008", "P1017", "P1018", "P2024", "P2028", "P2034", "P2037"]);

const TRANSIENT_TEXT =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|Connection terminated|connect to the database|DatabaseNotReachable|timeout exceeded when trying to connect|Query read timeout|not queryable|Transaction already closed|Unable to start a transaction|deadlock detected|statement timeout/i;

/** Every error code found on an error and the errors it wraps (Prisma's driver-adapter chain, `cause`). */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number) => {
    if (!value || typeof value !== "object" || seen.has(value) || depth > 6) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    for (const field of ["code", "originalCode", "errno"]) {
      if (typeof record[field] === "string") codes.push(record[field] as string);
    }
    visit(record.cause, depth + 1);
    visit(record.meta, depth + 1);
    visit(record.driverAdapterError, depth + 1);
  };
  visit(error, 0);
  return codes;
}

function messages(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof Error || typeof (e as { message?: unknown }).message === "string")
      parts.push(String((e as { message: unknown }).message));
  }
  return parts.join(" | ");
}

/**
 * A failure that is the database's state, not the request's fault: retrying later may succeed.
 * Answered as 503 with Retry-After, never as 500; ingest retries its transaction on these first.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (error instanceof DataDirLockedError) return true;
  if (error instanceof DatabaseTimeoutError) return true;
  const codes = errorCodes(error);
  if (codes.some((code) => TRANSIENT_SQLSTATES.has(code) || TRANSIENT_PRISMA.has(code) || /^08/.test(code))) return true;
  if (codes.some((code) => /^(ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH)/.test(code))) return true;
  return TRANSIENT_TEXT.test(messages(error));
}

/** A conflict between concurrent transactions (deadlock victim, serialization failure): retry at once. */
export function isTransactionConflict(error: unknown): boolean {
  const codes = errorCodes(error);
  return codes.some((code) => code === "40P01" || code === "40001" || code === "P2034") || /deadlock detected/i.test(messages(error));
}

/** A unique constraint refused the row (SQLSTATE 23505, Prisma P2002): it already exists. */
export function isUniqueViolation(error: unknown): boolean {
  return errorCodes(error).some((code) => code === "23505" || code === "P2002");
}

/** A database call that did not finish within its time limit. */
export class DatabaseTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseTimeoutError";
  }
}

/**
 * SQLSTATE classes of a row the database refuses for its own content: 22 data exception (a value out
 * of range, too long, not valid for its type), 23 integrity constraint violation (a check, a not-null,
 * a foreign key), 54 program limit exceeded (an index row over the btree maximum); and Prisma's codes
 * for the same (P2000 value too long, P2004 constraint failed, P2007 data validation, P2011 null
 * constraint, P2020 value out of range).
 */
const ROW_REFUSED_PRISMA = new Set(["P2000", "P2004", "P2007", "P2011", "P2020"]);

/**
 * The database refused a row for what it holds, not for its own state: storing the other rows of
 * the statement alone may succeed. Never true of a transient error (isTransientDatabaseError).
 */
export function isRowRefused(error: unknown): boolean {
  if (isTransientDatabaseError(error)) return false;
  return errorCodes(error).some((code) => /^(22|23|54)[0-9A-Z]{3}$/.test(code) || ROW_REFUSED_PRISMA.has(code));
}

/** The database's own words for a refused row, short (for an answer naming the row), with its SQLSTATE. */
export function refusalReason(error: unknown): string {
  const code = errorCodes(error).find((c) => /^[0-9A-Z]{5}$/.test(c) && !c.startsWith("P"));
  const message = (originalMessage(error) ?? "the row was refused").slice(0, 200);
  return code ? `${message} (SQLSTATE ${code})` : message;
}

/** The driver's message under Prisma's wrapping (`originalMessage` of a driver-adapter error), else the error's own first line. */
function originalMessage(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const find = (value: unknown, depth: number): string | undefined => {
    if (!value || typeof value !== "object" || seen.has(value) || depth > 6) return undefined;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (typeof record.originalMessage === "string") return record.originalMessage;
    return find(record.cause, depth + 1) ?? find(record.meta, depth + 1) ?? find(record.driverAdapterError, depth + 1);
  };
  const own = (error as { message?: unknown } | null)?.message;
  return find(error, 0) ?? (typeof own === "string" ? own.split("\n")[0] : undefined);
}

/**
 * The database refused with this SQLSTATE (as Prisma passes it on, from the driver adapter's
 * error). Cuescope's own triggers raise codes of class `CS` (e.g. `CSV01`, migration
 * 20261222000000_saved_views_cap), which PostgreSQL itself never uses.
 */
export function hasSqlState(error: unknown, sqlState: string): boolean {
  return errorCodes(error).includes(sqlState);
}
