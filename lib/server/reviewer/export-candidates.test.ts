import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZReviewerCandidatesResponse, type TReviewerCandidateRow } from "@/lib/contracts";
import { REVIEWER_CSV_COLUMNS } from "@/lib/reviewer/csv";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { reviewerExportRoute } from "@/lib/server/http/reviewer-routes";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { EXPORT_ERROR_MARK, exportReviewerCandidates } from "./export-candidates";
import { routeOf } from "@/lib/server/http/api";
import { reviewerApi } from "@/lib/endpoints";

const reviewerCandidatesRoute = routeOf(reviewerApi.candidates);
const reviewerFunnelRoute = routeOf(reviewerApi.funnel);

/**
 * The export never resets its connection: every parameter is checked before the download starts
 * (400 as JSON), and a failure after the first bytes ends the download with an error marker.
 */
describe.each(testDatabases())("Reviewer export on $name", (kind) => {
  let db: Database;
  let key: string;
  let projectId: string;
  let all: TReviewerCandidateRow[];

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "exports")).secret;
    projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "exports" } })).id;
    for (const [i, seed] of [31, 32].entries()) {
      const runId = `export-${seed}`;
      const events = generateEtfRun({ runId, seed, turns: 80, anomalies: true, startTime: `2026-11-2${i + 1}T10:00:00.000Z` }).events;
      for (let at = 0; at < events.length; at += 500) await ingestBatch(db, projectId, events.slice(at, at + 500));
    }
    await settleRebuilds(db);
    const listed = await reviewerCandidatesRoute(get("/api/v1/reviewer/candidates?limit=500"));
    all = ZReviewerCandidatesResponse.parse(await listed.json()).rows;
    expect(all.length).toBeGreaterThan(6);
  }, 120_000);
  afterAll(async () => db?.close());

  function get(path: string): Request {
    return new Request(`http://cuescope.test${path}`, { headers: { authorization: `Bearer ${key}` } });
  }

  /** Reads every byte of the answer: a reset or an errored stream fails here. */
  async function readAll(response: Response | Promise<Response>) {
    const answer = await response;
    return { status: answer.status, type: answer.headers.get("content-type") ?? "", text: await answer.text() };
  }

  const csvLines = (text: string) => text.split("\r\n").slice(0, -1);

  it("streams every row over several pages, CSV and JSON alike, ending complete", async () => {
    const csv = await readAll(exportReviewerCandidates(db, projectId, {}, "csv", { pageSize: 3 }));
    expect(csv.text.endsWith("\r\n")).toBe(true);
    const lines = csvLines(csv.text);
    expect(lines[0]).toBe(REVIEWER_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(all.length + 1);
    expect(lines.every((line) => !line.startsWith(EXPORT_ERROR_MARK))).toBe(true);

    const json = await readAll(exportReviewerCandidates(db, projectId, {}, "json", { pageSize: 3 }));
    expect(JSON.parse(json.text)).toEqual(all);

    // Through the route, with the default page size: the same rows.
    expect(JSON.parse((await readAll(reviewerExportRoute(get("/api/v1/reviewer/candidates/export?format=json")))).text)).toEqual(all);
  });

  it("answers 400 as JSON, before any download starts, for every bad parameter", async () => {
    const foreignCursor = Buffer.from(JSON.stringify({ run: "no-such-run", skip: 0 })).toString("base64url");
    const bad: [string, string][] = [
      ["format=xml", "format"],
      ["cursor=nope", "cursor"],
      [`cursor=${foreignCursor}`, "cursor"],
      [`cursor=${Buffer.from(JSON.stringify({ run: "x", skip: -1 })).toString("base64url")}`, "cursor"],
      ["violations=maybe", "violations"],
      ["agent=%00", "agent"],
      ["model=m%00large", "model"],
      ["runId=a%00", "runId"],
      ["from=yesterday", "from"],
      ["to=2026-01-01T23:59:61Z", "to"],
      ["from=0000-06-01T00:00:00Z", "from"],
      ["to=9999-12-31T23:59:59-14:00", "to"], // year 10000 in UTC
      ["agent=", "agent"],
      ["limit=0", "limit"],
    ];
    for (const format of ["csv", "json"]) {
      for (const [query, path] of bad) {
        const answer = await readAll(reviewerExportRoute(get(`/api/v1/reviewer/candidates/export?format=${format}&${query}`)));
        expect(answer.status, query).toBe(400);
        expect(answer.type).toMatch(/application\/json/);
        expect(JSON.parse(answer.text).error, query).toMatchObject({
          code: "invalid",
          path: query.startsWith("format") ? expect.any(String) : path,
        });
      }
    }
    // The list and the funnel share the checks.
    for (const route of [reviewerCandidatesRoute, reviewerFunnelRoute]) {
      expect((await readAll(route(get("/api/v1/reviewer/candidates?agent=%00")))).status).toBe(400);
      expect((await readAll(route(get("/api/v1/reviewer/candidates?from=0000-06-01T00:00:00Z")))).status).toBe(400);
    }
  });

  it("answers odd but valid parameters with a complete download", async () => {
    const odd = [
      "from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z",
      "from=0001-01-01T00:00:00-14:00&to=9999-12-31T23:59:59%2B14:00",
      `runId=${encodeURIComponent(" :%+;&=,@$<\u00e9\u{1F600}")}`,
      `agent=${encodeURIComponent("\u{FFFD}\u{10FFFF}")}&model=${"x".repeat(5000)}`,
      "violations=1&unknown=param",
    ];
    for (const query of odd) {
      const csv = await readAll(reviewerExportRoute(get(`/api/v1/reviewer/candidates/export?format=csv&${query}`)));
      expect(csv.status, query).toBe(200);
      expect(csvLines(csv.text)[0]).toBe(REVIEWER_CSV_COLUMNS.join(","));
      const json = await readAll(reviewerExportRoute(get(`/api/v1/reviewer/candidates/export?format=json&${query}`)));
      expect(json.status, query).toBe(200);
      expect(Array.isArray(JSON.parse(json.text))).toBe(true);
    }
  });

  it("ends a download that fails after its first page with an error marker a client can detect, and logs it", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const gone = Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
      const failing = () => failingRuns(db, gone, "later pages");
      const csv = await readAll(exportReviewerCandidates(failing(), projectId, {}, "csv", { pageSize: 3 }));
      expect(csv.status).toBe(200);
      const lines = csvLines(csv.text);
      expect(lines).toHaveLength(1 + 3 + 1);
      expect(lines.at(-1)).toMatch(/^#error,unavailable,the export stopped after 3 rows: the database is busy or unreachable/);

      const json = await readAll(exportReviewerCandidates(failing(), projectId, {}, "json", { pageSize: 3 }));
      expect(() => JSON.parse(json.text)).toThrow(); // never mistaken for a complete list
      expect(JSON.parse(json.text.trimEnd().split("\n").at(-1)!)).toEqual({
        error: { code: "unavailable", message: expect.stringContaining("stopped after 3 rows") },
      });
      expect(JSON.parse(`${json.text}]`).slice(0, -1)).toEqual(all.slice(0, 3));

      const internal = await readAll(
        exportReviewerCandidates(failingRuns(db, new TypeError("boom"), "later pages"), projectId, {}, "csv", { pageSize: 3 }),
      );
      expect(csvLines(internal.text).at(-1)).toMatch(/^#error,internal,/);
      expect(internal.text).not.toContain("boom");
      expect(log).toHaveBeenCalledWith(expect.stringContaining("reviewer export stopped after 3 rows"), expect.anything());
    } finally {
      log.mockRestore();
    }
  });

  it("answers 503 as JSON when the database fails before the download starts", async () => {
    useDatabase(failingRuns(db, Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), "all"));
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const answer = await readAll(reviewerExportRoute(get("/api/v1/reviewer/candidates/export?format=csv")));
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text).error.code).toBe("unavailable");
    } finally {
      log.mockRestore();
      useDatabase(db);
    }
  });

  it("stops reading when the client goes away mid-download", async () => {
    const response = await exportReviewerCandidates(db, projectId, {}, "json", { pageSize: 2 });
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
  });
});

/**
 * The database with its raw reads (the Reviewer pages' one query each) failing: "later pages" lets
 * the first read through and fails every one after it (a database that went away mid-download);
 * "all" fails every one.
 */
function failingRuns(db: Database, error: Error, which: "later pages" | "all"): Database {
  let reads = 0;
  const prisma = new Proxy(db.prisma, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== "$queryRaw") return value;
      return (...args: unknown[]) => {
        // A page is one read of the candidates, then one of their reviews: the candidates' reads count.
        const text = (args[0] as { sql?: string; strings?: readonly string[] }).sql ?? (args[0] as string[]).join("?");
        if (text.includes('"reviewer_rows"')) reads++;
        if (which === "all" || reads > 1) return Promise.reject(error);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...db, prisma } as Database;
}
