import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEWER_FINDING_CODES, ZReviewerCandidatesResponse, ZReviewerFunnel, type TReviewerCandidateRow } from "@/lib/contracts";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { reviewerExportRoute } from "@/lib/server/http/reviewer-routes";
import { REVIEWER_CSV_COLUMNS } from "@/lib/reviewer/csv";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { routeOf } from "@/lib/server/http/api";
import { reviewerApi } from "@/lib/endpoints";

const reviewerCandidatesRoute = routeOf(reviewerApi.candidates);
const reviewerFunnelRoute = routeOf(reviewerApi.funnel);

const REVIEWER_CODES = new Set<string>(REVIEWER_FINDING_CODES);

describe.each(testDatabases())("Reviewer candidates API on $name", (kind) => {
  let db: Database;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "leads")).secret;
    otherKey = (await createKey(db, "others")).secret;
    const projectId = (await db.prisma.project.findUniqueOrThrow({ where: { name: "leads" } })).id;
    for (const [i, seed] of [21, 22].entries()) {
      const runId = `audit-${seed}`;
      const events = generateEtfRun({ runId, seed, turns: 300, anomalies: true, startTime: `2026-11-2${i + 1}T10:00:00.000Z` }).events;
      for (let at = 0; at < events.length; at += 500)
        await ingestBatch(
          db,
          projectId,
          events.slice(at, at + 500).map((e) => ({ ...e, id: `${runId}:${e.id}` })),
        );
    }
    await settleRebuilds(db);
  }, 120_000);
  afterAll(async () => db?.close());

  const list = async (query: string, secret = key) => {
    const response = await reviewerCandidatesRoute(
      new Request(`http://cuescope.test/api/v1/reviewer/candidates${query}`, { headers: { authorization: `Bearer ${secret}` } }),
    );
    return { status: response.status, body: await response.json() };
  };

  it("lists every candidate of every run, newest run first, the same across pages", async () => {
    const all = ZReviewerCandidatesResponse.parse((await list("?limit=500")).body);
    expect(all.nextCursor).toBeNull();
    expect(new Set(all.rows.map((r) => r.runId))).toEqual(new Set(["audit-22", "audit-21"]));
    expect(all.rows[0].runId).toBe("audit-22");
    expect(all.rows.some((r) => r.source === "both")).toBe(true);
    // R13's budget condition is evaluated on the turn's requests reading, not on "no reading yet".
    const judged = all.rows.filter((r) => r.rule !== null);
    expect(judged.length).toBeGreaterThan(0);
    for (const row of judged) expect(row.rule!.requestsLeft).toEqual(expect.any(Number));

    const paged: TReviewerCandidateRow[] = [];
    let cursor = "";
    for (let page = 0; page < 100; page++) {
      const { body } = await list(`?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      const parsed = ZReviewerCandidatesResponse.parse(body);
      paged.push(...parsed.rows);
      if (!parsed.nextCursor) break;
      cursor = parsed.nextCursor;
    }
    expect(paged).toEqual(all.rows);
  });

  const pages = async (query: string, limit: number) => {
    const paged: TReviewerCandidateRow[] = [];
    let cursor = "";
    for (let page = 0; page < 500; page++) {
      const parsed = ZReviewerCandidatesResponse.parse((await list(`?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`)).body);
      paged.push(...parsed.rows);
      if (!parsed.nextCursor) return paged;
      cursor = parsed.nextCursor;
    }
    throw new Error("more pages than expected");
  };

  it("sorts oldest run first, or most violations first (then newest run, then turn), the same across pages", async () => {
    const newest = ZReviewerCandidatesResponse.parse((await list("?limit=500")).body).rows;
    const byRun = (runId: string) => newest.filter((r) => r.runId === runId);
    const oldest = [...byRun("audit-21"), ...byRun("audit-22")];
    expect((await list("?sort=oldest&limit=500")).body.rows).toEqual(oldest);
    expect(await pages("sort=oldest", 9)).toEqual(oldest);

    // A stable sort of the newest-first rows by their finding count is the order the index keeps.
    const mostViolations = [...newest].sort((a, b) => b.findings.length - a.findings.length);
    expect(mostViolations[0].findings.length).toBeGreaterThan(0);
    expect(mostViolations).not.toEqual(newest); // the order is a new one, not the default's
    expect(await pages("sort=violations", 5)).toEqual(mostViolations);
    expect(await pages("sort=violations&violations=1", 4)).toEqual(mostViolations.filter((r) => r.findings.length > 0));
    expect((await list("?sort=newest&limit=500")).body.rows).toEqual(newest);
  });

  it("takes a cursor only in the order it came from, and names a bad sort", async () => {
    const first = (await list("?sort=violations&limit=2")).body;
    expect(first.nextCursor).toEqual(expect.any(String));
    for (const sort of ["newest", "oldest"]) {
      const { status, body } = await list(`?sort=${sort}&cursor=${first.nextCursor}`);
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ path: "cursor", message: expect.stringContaining(`sort=${sort}`) });
    }
    // A crafted cursor past bigint is a 400 naming the cursor, never a database error.
    const crafted = Buffer.from(JSON.stringify({ o: "violations", c: 1, m: "9999999999999999999", r: "x", n: 0 })).toString("base64url");
    const huge = await list(`?sort=violations&cursor=${crafted}`);
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({ path: "cursor" });
    const { status, body } = await list("?sort=loudest");
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ path: "sort", message: expect.stringContaining("newest, oldest, violations") });
  });

  it("filters to violations, each flagged with its Reviewer finding code", async () => {
    const violations = ZReviewerCandidatesResponse.parse((await list("?violations=1&limit=500")).body);
    expect(violations.rows.length).toBeGreaterThan(0);
    for (const row of violations.rows) {
      expect(row.findings.length).toBeGreaterThan(0);
      for (const code of row.findings) expect(REVIEWER_CODES.has(code)).toBe(true);
    }
    const codes = new Set(violations.rows.flatMap((r) => r.findings));
    expect(codes).toEqual(REVIEWER_CODES);
  });

  it("keeps projects apart and rejects bad parameters by name", async () => {
    expect(ZReviewerCandidatesResponse.parse((await list("", otherKey)).body).rows).toEqual([]);
    expect((await list("?violations=maybe")).body.error).toMatchObject({ path: "violations" });
    expect((await list("?cursor=nope")).body.error).toMatchObject({ path: "cursor" });
  });

  it("exports the filtered rows as streamed CSV and JSON, the same rows as the API", async () => {
    const api = ZReviewerCandidatesResponse.parse((await list("?violations=true&limit=500")).body).rows;
    const exportOf = (format: string) =>
      reviewerExportRoute(
        new Request(`http://cuescope.test/api/v1/reviewer/candidates/export?format=${format}&violations=true`, {
          headers: { authorization: `Bearer ${key}` },
        }),
      );
    const csv = await exportOf("csv");
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="reviewer-candidates-.*\.csv"/);
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(REVIEWER_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(api.length + 1);
    expect(lines[1].startsWith(`${api[0].runId},`)).toBe(true);

    const json = await exportOf("json");
    expect(JSON.parse(await json.text())).toEqual(api);
    expect((await exportOf("xml")).status).toBe(400);
  });

  it("counts the funnel over every matching candidate", async () => {
    const rows = ZReviewerCandidatesResponse.parse((await list("?limit=500")).body).rows;
    const response = await reviewerFunnelRoute(
      new Request("http://cuescope.test/api/v1/reviewer/funnel", { headers: { authorization: `Bearer ${key}` } }),
    );
    const funnel = ZReviewerFunnel.parse(await response.json());
    expect(funnel.candidates.total).toBe(rows.length);
    expect(funnel.dispatches.total).toBe(rows.reduce((n, r) => n + r.dispatches.length, 0));
    expect(funnel.violations.DISPATCH_WITHOUT_ADMISSION).toBe(rows.filter((r) => r.findings.includes("DISPATCH_WITHOUT_ADMISSION")).length);
  });

  it("filters to one Reviewer finding code (rows with it, and the funnel of the runs that have it), page by page", async () => {
    const all = ZReviewerCandidatesResponse.parse((await list("?limit=500")).body).rows;
    for (const code of REVIEWER_CODES) {
      const expected = all.filter((r) => (r.findings as string[]).includes(code));
      const paged: TReviewerCandidateRow[] = [];
      let cursor = "";
      for (let page = 0; page < 100; page++) {
        const parsed = ZReviewerCandidatesResponse.parse((await list(`?code=${code}&limit=3${cursor ? `&cursor=${cursor}` : ""}`)).body);
        paged.push(...parsed.rows);
        if (!parsed.nextCursor) break;
        cursor = parsed.nextCursor;
      }
      expect(paged, code).toEqual(expected);
      expect(expected.length, code).toBeGreaterThan(0);
      const response = await reviewerFunnelRoute(
        new Request(`http://cuescope.test/api/v1/reviewer/funnel?code=${code}`, { headers: { authorization: `Bearer ${key}` } }),
      );
      const funnel = ZReviewerFunnel.parse(await response.json());
      const runs = new Set(expected.map((r) => r.runId));
      expect(funnel.candidates.total, code).toBe(all.filter((r) => runs.has(r.runId)).length);
    }
    expect((await list("?code=FREE_REQUEST")).body.error).toMatchObject({ path: "code" });
  });
});
