import { describe, expect, it } from "vitest";
import { isTransientDatabaseError } from "./errors";

/** Shapes seen from Prisma 7 with driver adapters when the database is down, hung or overloaded. */
function prismaError(code: string, message: string, cause?: Record<string, unknown>) {
  return Object.assign(new Error(message), { code, meta: cause ? { driverAdapterError: { cause } } : undefined });
}

describe("transient database errors (answered 503)", () => {
  it.each([
    [
      "a statement timeout",
      prismaError("P2010", "Raw query failed", {
        kind: "postgres",
        code: "57014",
        message: "canceling statement due to statement timeout",
      }),
    ],
    [
      "a lock timeout",
      prismaError("P2010", "Raw query failed", { kind: "postgres", code: "55P03", message: "canceling statement due to lock timeout" }),
    ],
    ["disk full", prismaError("P2010", "Raw query failed", { kind: "postgres", code: "53100", message: "could not extend file" })],
    [
      "too many connections",
      prismaError("P2037", "Too many database connections opened: sorry, too many clients already", { kind: "TooManyConnections" }),
    ],
    ["a closed transaction", prismaError("P1018", "Transaction already closed", { kind: "TransactionAlreadyClosed" })],
    ["the client-side query timeout", new Error("Query read timeout")],
    ["a connection given up after a timeout", new Error("Client was closed and is not queryable")],
    ["a connect timeout", new Error("Connection terminated due to connection timeout")],
    ["an unreachable server", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
  ])("%s", (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });

  it.each([
    ["a unique violation", prismaError("P2002", "Unique constraint failed")],
    ["a missing table", prismaError("P2021", "The table does not exist")],
    ["a programming error", new TypeError("cannot read properties of undefined")],
  ])("but not %s", (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});
