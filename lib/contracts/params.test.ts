import { describe, expect, it } from "vitest";
import { problemsFrom } from "./issues";
import { parseQueryInstant, queryInstantDate, ZCursorParam, ZInstantParam, ZRunIdParam, ZTurnParam, zIntParam } from "./params";
import { ZEventsQuery, ZRunListQuery, ZTimelineQuery } from "./api";
import { ZReviewerCandidatesQuery } from "./reviewer";

const problem = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success
    ? null
    : problemsFrom(result.error as never)
        .map((p) => `${p.path}: ${p.message}`)
        .join("; ");
};

describe("date parameters", () => {
  it("reads years 0001-0099 as themselves, with offsets and fractions", () => {
    expect(queryInstantDate("0050-06-01T00:00:00Z").toISOString()).toBe("0050-06-01T00:00:00.000Z");
    expect(queryInstantDate("0001-01-01T01:00:00+01:00").toISOString()).toBe("0001-01-01T00:00:00.000Z");
    expect(queryInstantDate("0099-12-31T23:59:59.9999z").toISOString()).toBe("0099-12-31T23:59:59.999Z");
    expect(queryInstantDate("2026-11-29T10:00Z").toISOString()).toBe("2026-11-29T10:00:00.000Z");
    // a leap second, as in events: the last millisecond of its minute
    expect(queryInstantDate("2016-12-31T23:59:60Z").toISOString()).toBe("2016-12-31T23:59:59.999Z");
    expect(parseQueryInstant("2024-02-29T00:00:00Z")).toBe(Date.UTC(2024, 1, 29));
  });

  it("rejects what is not a date-time, and instants outside 0001-9999, naming the value", () => {
    expect(problem(ZInstantParam, "0000-06-01T00:00:00Z")).toBe(
      ': expected a date-time from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, got "0000-06-01T00:00:00Z"',
    );
    expect(problem(ZInstantParam, "9999-12-31T23:00:00-01:00")).toMatch(/expected a date-time from/);
    for (const bad of [
      "+275760-09-13T00:00:00Z",
      "275760-09-13T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-11-29T24:00:00Z",
      "2026-11-29T10:00:61Z",
      "2026-11-29T10:00:00",
      "2026-11-29",
      "NaN",
      "",
      " 2026-11-29T10:00:00Z",
    ]) {
      expect(problem(ZInstantParam, bad), bad).toMatch(/^: expected an RFC 3339 date-time with a zone/);
    }
  });
});

describe("integer parameters", () => {
  it("accepts plain digits in range only", () => {
    expect(ZTurnParam.parse("0")).toBe(0);
    expect(ZTurnParam.parse("2147483647")).toBe(2147483647);
    for (const bad of ["2147483648", "-1", "-0", "1e3", "0x10", " 1", "1.0", "", "NaN", "Infinity", "９"]) {
      expect(problem(ZTurnParam, bad), bad).toBe(`: expected an integer from 0 to 2147483647, got ${JSON.stringify(bad)}`);
    }
    expect(problem(zIntParam(1, 200), "201")).toBe(': expected an integer from 1 to 200, got "201"');
  });
});

describe("text parameters", () => {
  it("rejects NUL, lone surrogates and over-long values", () => {
    expect(ZRunIdParam.parse("ünïcødé-运行-🚀")).toBe("ünïcødé-运行-🚀");
    expect(problem(ZRunIdParam, "a\u0000")).toMatch(/without NUL characters/);
    expect(problem(ZRunIdParam, "\ud800")).toMatch(/lone surrogates/);
    expect(problem(ZRunIdParam, "x".repeat(129))).toBe(": expected a run id of 1-128 characters, got 129 characters");
    expect(problem(ZRunIdParam, "")).toBe(": expected a run id of 1-128 characters, got 0 characters");
    expect(problem(ZCursorParam, "x".repeat(2000))).toMatch(/nextCursor/);
  });
});

describe("query schemas name the parameter", () => {
  it("in every read API's query", () => {
    expect(problem(ZRunListQuery, { from: "0000-01-01T00:00:00Z" })).toMatch(/^from: expected a date-time from/);
    expect(problem(ZRunListQuery, { status: "done" })).toBe("status: expected one of live, completed, failed, stopped");
    expect(problem(ZRunListQuery, { limit: "0" })).toBe('limit: expected an integer from 1 to 200, got "0"');
    expect(problem(ZEventsQuery, { cursor: "99999999999999999999" })).toMatch(/^cursor: expected the nextCursor/);
    expect(problem(ZEventsQuery, { turn: "99999999999" })).toMatch(/^turn: expected an integer from 0/);
    expect(problem(ZTimelineQuery, { maxPoints: "3" })).toBe('maxPoints: expected an integer from 4 to 5000, got "3"');
    expect(problem(ZReviewerCandidatesQuery, { runId: "\u0000" })).toMatch(/^runId: expected a run id/);
    expect(problem(ZReviewerCandidatesQuery, { violations: "yes" })).toBe("violations: expected 1, 0, true or false");
    expect(ZRunListQuery.parse({}).limit).toBe(50);
    // Server code builds queries with numbers (the policy page asks for one run).
    expect(ZRunListQuery.parse({ limit: 1 }).limit).toBe(1);
    expect(problem(ZRunListQuery, { limit: 1.5 })).toBe("limit: expected an integer from 1 to 200, got number");
  });
});
