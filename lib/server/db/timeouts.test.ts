import { describe, expect, it } from "vitest";
import { DatabaseTimeoutError, isTransientDatabaseError } from "./errors";
import { databaseTimeouts, withDeadline } from "./timeouts";

describe("database timeouts", () => {
  it("default to 5 s connect, 15 s statement, 10 s lock, 60 s idle in transaction, 17 s client side, 20 s open, 5 min migrations", () => {
    expect(databaseTimeouts({}, {})).toEqual({
      connectMs: 5_000,
      statementMs: 15_000,
      lockMs: 10_000,
      idleInTransactionMs: 60_000,
      queryMs: 17_000,
      openMs: 20_000,
      migrationMs: 300_000,
    });
  });

  it("read the environment, 0 turning one off, and keep the default for a value that is not whole milliseconds", () => {
    const env = { CUESCOPE_DB_STATEMENT_TIMEOUT_MS: "2500", CUESCOPE_DB_CONNECT_TIMEOUT_MS: "0", CUESCOPE_DB_LOCK_TIMEOUT_MS: "soon" };
    const timeouts = databaseTimeouts({}, env);
    expect(timeouts).toMatchObject({ statementMs: 2_500, connectMs: 0, lockMs: 10_000, queryMs: 4_500 });
    expect(databaseTimeouts({}, { CUESCOPE_DB_STATEMENT_TIMEOUT_MS: "0" }).queryMs).toBe(0);
    expect(databaseTimeouts({ queryMs: 50 }, env).queryMs).toBe(50);
  });

  it("bound a caller's wait with an error answered as 503", async () => {
    const never = new Promise<never>(() => {});
    const failure = await withDeadline(never, 20, "opening the database").catch((error) => error);
    expect(failure).toBeInstanceOf(DatabaseTimeoutError);
    expect(failure.message).toBe("opening the database took longer than 20 ms");
    expect(isTransientDatabaseError(failure)).toBe(true);
    expect(await withDeadline(Promise.resolve(7), 20, "x")).toBe(7);
    expect(await withDeadline(Promise.resolve(7), 0, "x")).toBe(7);
  });
});
