import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env, ENV, readEnv } from "./env";

describe("the environment", () => {
  afterEach(() => vi.restoreAllMocks());

  it("has a default for every variable, blank counting as unset", () => {
    const defaults = readEnv({});
    expect(defaults).toMatchObject({
      DATABASE_URL: undefined,
      CUESCOPE_DATA_DIR: ".cuescope/data",
      CUESCOPE_TRUST_PROXY: 0,
      CUESCOPE_INGEST_CONCURRENCY: 4,
      CUESCOPE_HEALTH_TIMEOUT_MS: 3_000,
      CUESCOPE_DB_STATEMENT_TIMEOUT_MS: 15_000,
      CUESCOPE_DB_QUERY_TIMEOUT_MS: undefined,
    });
    expect(readEnv({ DATABASE_URL: " ", CUESCOPE_DATA_DIR: "", CUESCOPE_INGEST_CONCURRENCY: "" })).toEqual(defaults);
  });

  it("parses values: proxy hops as 0/false, true or a count; strings as given", () => {
    expect(["0", "false", " FALSE ", "true", "2"].map((v) => env("CUESCOPE_TRUST_PROXY", { CUESCOPE_TRUST_PROXY: v }))).toEqual([
      0, 0, 0, 1, 2,
    ]);
    expect(env("CUESCOPE_INGEST_CONCURRENCY", { CUESCOPE_INGEST_CONCURRENCY: "8" })).toBe(8);
    expect(env("CUESCOPE_DB_CONNECT_TIMEOUT_MS", { CUESCOPE_DB_CONNECT_TIMEOUT_MS: "0" })).toBe(0);
    expect(env("DATABASE_URL", { DATABASE_URL: "postgresql://u@h/db" })).toBe("postgresql://u@h/db");
  });

  it("reports a value that does not parse once, naming the variable, and keeps the default", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const source = { CUESCOPE_TRUST_PROXY: "yes please", CUESCOPE_HEALTH_TIMEOUT_MS: "0" };
    expect(env("CUESCOPE_TRUST_PROXY", source)).toBe(0);
    expect(env("CUESCOPE_TRUST_PROXY", source)).toBe(0);
    expect(env("CUESCOPE_HEALTH_TIMEOUT_MS", source)).toBe(3_000);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      '[cuescope] CUESCOPE_TRUST_PROXY="yes please" is not a number of proxy hops (0/false, true = 1, or a positive whole number); using 0',
      '[cuescope] CUESCOPE_HEALTH_TIMEOUT_MS="0" is not a positive whole number of milliseconds; using 3000',
    ]);
  });

  it("documents every variable an operator sets in docs/operations.md", () => {
    const operations = readFileSync("docs/operations.md", "utf8");
    const missing = Object.entries(ENV)
      .filter(([name, spec]) => !("internal" in spec && spec.internal) && !operations.includes(`\`${name}`))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });
});
