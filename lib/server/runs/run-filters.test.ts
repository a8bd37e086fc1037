import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";

import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { startedEvent } from "@/lib/server/testing/events";
import { likeLiteral } from "./run-filters";
import { routeOf } from "@/lib/server/http/api";
import { runsApi } from "@/lib/endpoints";

const listRunsRoute = routeOf(runsApi.list);

/** Tasks that differ only in the characters LIKE treats specially. */
const TASKS: Record<string, string> = {
  percent: "Cut fees by 5% this year",
  underscore: "Read the fees file fee_table.csv",
  backslash: "Open C:\\reports\\fees",
  plain: "Compare fees of VOO and IVV",
  letters: "Compare 5 x fees_or_not", // no %; `_` only inside a word
};

/** The experiment and arm some runs' run.started name (contract §10). */
const EXPERIMENTS: Record<string, { id: string; arm: string }> = {
  percent: { id: "exp-a", arm: "control" },
  underscore: { id: "exp-a", arm: "shorter" },
  plain: { id: "exp-b", arm: "control" },
};

describe("likeLiteral", () => {
  it("escapes the escape character and both wildcards, nothing else", () => {
    expect(likeLiteral("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
    expect(likeLiteral("plain text: ü 运行")).toBe("plain text: ü 运行");
  });
});

describe.each(testDatabases())("runs list filters on $name", (kind) => {
  let db: Database;
  let key: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "filters")).secret;
    const projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "filters" } })).id;
    const result = await ingestBatch(
      db,
      projectId,
      Object.entries(TASKS).map(([runId, task]) =>
        startedEvent(runId, `${runId}-start`, { task, ...(EXPERIMENTS[runId] ? { experiment: EXPERIMENTS[runId] } : {}) }),
      ),
    );
    expect(result.summary.error).toBe(0);
    // Early years, set directly: the filter is under test here, not the ingest of such timestamps.
    const early = new Date(0);
    early.setUTCFullYear(50, 5, 1);
    await db.prisma.run.updateMany({ where: { projectId, runId: "percent" }, data: { startedAt: early } });
  }, 60_000);
  afterAll(async () => db?.close());

  const list = async (query: Record<string, string>) => {
    const url = `http://cuescope.test/api/v1/runs?${new URLSearchParams(query)}`;
    const response = await listRunsRoute(new Request(url, { headers: { authorization: `Bearer ${key}` } }));
    const body = await response.json();
    return {
      status: response.status,
      body,
      runIds: response.status === 200 ? (body.runs as { runId: string }[]).map((r) => r.runId).sort() : [],
    };
  };

  it("finds `%`, `_` and `\\` in the task as themselves, not as wildcards", async () => {
    expect((await list({ q: "%" })).runIds).toEqual(["percent"]);
    expect((await list({ q: "_" })).runIds).toEqual(["letters", "underscore"]);
    expect((await list({ q: "e_t" })).runIds).toEqual(["underscore"]);
    expect((await list({ q: "\\" })).runIds).toEqual(["backslash"]);
    expect((await list({ q: "5%" })).runIds).toEqual(["percent"]);
    expect((await list({ q: "C:\\reports" })).runIds).toEqual(["backslash"]);
    expect((await list({ q: "FEES" })).runIds).toEqual(Object.keys(TASKS).sort());
  });

  it("filters by the experiment and the arm the run.started named, and lists both on each run", async () => {
    expect((await list({ experiment: "exp-a" })).runIds).toEqual(["percent", "underscore"]);
    expect((await list({ arm: "control" })).runIds).toEqual(["percent", "plain"]);
    expect((await list({ experiment: "exp-a", arm: "control" })).runIds).toEqual(["percent"]);
    expect((await list({ experiment: "exp-b", arm: "shorter" })).runIds).toEqual([]);
    expect((await list({ experiment: "nobody" })).runIds).toEqual([]);
    const all = (await list({})).body.runs as { runId: string; experimentId: string | null; experimentArm: string | null }[];
    expect(Object.fromEntries(all.map((r) => [r.runId, [r.experimentId, r.experimentArm]]))).toEqual({
      percent: ["exp-a", "control"],
      underscore: ["exp-a", "shorter"],
      plain: ["exp-b", "control"],
      backslash: [null, null],
      letters: [null, null],
    });
    const tooLong = await list({ experiment: "x".repeat(201) });
    expect([tooLong.status, tooLong.body.error.path]).toEqual([400, "experiment"]);
    expect((await list({ arm: "" })).status).toBe(400);
  });

  it("searches the run id, the agent and the model as well as the task", async () => {
    expect((await list({ q: "UNDERSC" })).runIds).toEqual(["underscore"]); // run id only
    expect((await list({ q: "etf-AGENT" })).runIds).toEqual(Object.keys(TASKS).sort()); // every run's agent
    expect((await list({ q: "m-large" })).runIds).toEqual(Object.keys(TASKS).sort()); // every run's model
    expect((await list({ q: "ercen" })).runIds).toEqual(["percent"]); // the run id, not the task's `%`
    expect((await list({ q: "no such text" })).runIds).toEqual([]);
  });

  it("filters by dates in years 0001-0099 as those years, not 1900-1999", async () => {
    expect((await list({ from: "0050-01-01T00:00:00Z", to: "0051-01-01T00:00:00Z" })).runIds).toEqual(["percent"]);
    expect((await list({ from: "1950-01-01T00:00:00Z", to: "1951-01-01T00:00:00Z" })).runIds).toEqual([]);
    expect((await list({ from: "0001-01-01T00:00:00Z", to: "0100-01-01T00:00:00+01:00" })).runIds).toEqual(["percent"]);
    expect((await list({ from: "0100-01-01T00:00:00Z" })).runIds).toEqual(
      Object.keys(TASKS)
        .filter((r) => r !== "percent")
        .sort(),
    );
  });

  it("answers 400 naming the parameter for dates it cannot hold or read", async () => {
    for (const from of [
      "0000-12-31T23:59:59Z",
      "0001-01-01T00:30:00+01:00",
      "+275760-09-13T00:00:00Z",
      "2026-02-30T00:00:00Z",
      "2026-11-29",
      "yesterday",
    ]) {
      const { status, body } = await list({ from });
      expect(status, from).toBe(400);
      expect(body.error).toMatchObject({ code: "invalid", path: "from" });
      expect(body.error.message).toMatch(/^query\.from: expected /);
    }
  });

  it("answers 400 for text the database cannot compare, and garbage cursors", async () => {
    for (const [name, value] of [
      ["q", "a\u0000b"],
      ["agent", "\u0000"],
      ["model", "x".repeat(10_001)],
      ["q", "x".repeat(201)],
      ["cursor", "garbage"],
      ["limit", "1e3"],
      ["limit", " 5"],
    ]) {
      const { status, body } = await list({ [name]: value });
      expect(status, `${name}=${JSON.stringify(value)}`).toBe(400);
      expect(body.error.path).toBe(name);
    }
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const [cursor, sort] of [
      [forged({ v: "x", id: "a" }), "-started"],
      [forged({ v: {}, id: "a" }), "turns"],
      [forged({ v: 1e12, id: "a" }), "turns"],
      [forged({ v: null, id: "\u0000" }), "-started"],
      [forged(null), "-started"],
    ] as const) {
      const { status } = await list({ cursor, sort });
      expect(status, cursor).toBe(400);
    }
  });
});
