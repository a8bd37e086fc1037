import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ZAuditList,
  ZReview,
  ZReviewerCandidatesResponse,
  ZReviewProgress,
  ZReviewTrends,
  ZRunReviews,
  type TReviewerListRow,
} from "@/lib/contracts";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { auditApi, reviewerApi, reviewsApi } from "@/lib/endpoints";
import { createKey, type Caller } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { reviewProgress } from "@/lib/server/reviewer/review-progress";
import { candidateConditions } from "@/lib/server/reviewer/list-candidates";
import { updateReview } from "./update-review";

const ORIGIN = "http://127.0.0.1:3000";
const LONG_RUN_ID = `rev-long-${"r".repeat(119)}`;

describe.each(testDatabases())("reviews of Reviewer candidates on $name", (kind) => {
  let db: Database;
  let projectA: string;
  let keyA: string;
  let keyB: string;
  /** Every candidate of project A, as the audit lists them (no filter). */
  let all: TReviewerListRow[];
  /** Two people of project A and one of project B only. */
  const ada = { id: "person-ada", name: "Ada", email: "ada@example.com" };
  const bo = { id: "person-bo", name: "Bo", email: "bo@example.com" };
  const cy = { id: "person-cy", name: "Cy", email: "cy@example.com" };
  const asPerson = (person: typeof ada): Caller => ({ projectId: projectA, project: "rev-a", person, via: "person", role: "member" });

  async function get(path: string, secret = keyA) {
    const url = new URL(`${ORIGIN}${path}`);
    const endpoint = [reviewerApi.candidates, reviewsApi.progress, reviewsApi.trends, auditApi.list, reviewsApi.runReviews].find(
      (e) =>
        e.segments.length === url.pathname.split("/").length - 1 &&
        new RegExp(`^${e.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(url.pathname),
    )!;
    const params = url.pathname.match(/^\/api\/v1\/runs\/([^/]+)\/reviews$/);
    const response = await routeOf(endpoint)(new Request(url, { headers: { authorization: `Bearer ${secret}` } }), {
      params: Promise.resolve<Record<string, string>>(params ? { runId: decodeURIComponent(params[1]) } : {}),
    });
    return { status: response.status, body: await response.json() };
  }

  async function patch(runId: string, reviewKey: string, body: unknown, secret = keyA) {
    const response = await routeOf(reviewsApi.update)(
      new Request(`${ORIGIN}/api/v1/runs/${encodeURIComponent(runId)}/reviews/${encodeURIComponent(reviewKey)}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ runId, reviewKey }) },
    );
    return { status: response.status, body: await response.json() };
  }

  /** `GET /api/v1/runs/{runId}/reviews/{reviewKey}`. */
  async function getOne(runId: string, reviewKey: string, secret = keyA) {
    const response = await routeOf(reviewsApi.review)(
      new Request(`${ORIGIN}/api/v1/runs/${encodeURIComponent(runId)}/reviews/${encodeURIComponent(reviewKey)}`, {
        headers: { authorization: `Bearer ${secret}` },
      }),
      { params: Promise.resolve({ runId, reviewKey }) },
    );
    return { status: response.status, body: await response.json() };
  }

  const candidates = async (query: string) =>
    ZReviewerCandidatesResponse.parse((await get(`/api/v1/reviewer/candidates?limit=500${query}`)).body).rows;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    keyA = (await createKey(db, "rev-a", "lead key")).secret;
    keyB = (await createKey(db, "rev-b")).secret;
    projectA = (await db.prisma.project.findUniqueOrThrow({ where: { name: "rev-a" } })).id;
    const projectB = (await db.prisma.project.findUniqueOrThrow({ where: { name: "rev-b" } })).id;
    for (const [projectId, runId, seed, turns, idPrefix] of [
      [projectA, "rev-1", 21, 300, "rev-1"],
      [projectA, "rev-2", 22, 300, "rev-2"],
      [projectB, "rev-b-1", 21, 300, "rev-b-1"],
      // A run id of the longest kind (128 characters): its reviews' audit target ids are longer than that.
      [projectB, LONG_RUN_ID, 23, 60, "rev-long"],
    ] as const) {
      const events = generateEtfRun({ runId, seed, turns, anomalies: true, startTime: "2026-11-20T10:00:00.000Z" }).events;
      for (let at = 0; at < events.length; at += 500) {
        await ingestBatch(
          db,
          projectId,
          events.slice(at, at + 500).map((e) => ({ ...e, id: `${idPrefix}:${e.id}` })),
        );
      }
    }
    await settleRebuilds(db);
    for (const person of [ada, bo, cy]) await db.prisma.person.create({ data: person });
    await db.prisma.projectMember.createMany({
      data: [
        { projectId: projectA, personId: ada.id, role: "member" },
        { projectId: projectA, personId: bo.id, role: "member" },
        { projectId: projectB, personId: cy.id, role: "admin" },
      ],
    });
    all = await candidates("");
  }, 120_000);
  afterAll(async () => db?.close());

  it("keys each candidate by its candidate id, or by its turn when only the rebuild says it was due; the queue is the dispatched, the flagged and those", async () => {
    expect(all.length).toBeGreaterThan(4);
    for (const row of all) expect(row.reviewKey).toBe(row.candidateId === null ? `t:${row.turn}` : `c:${row.candidateId}`);
    const expected = all.filter((r) => r.dispatches.length > 0 || r.findings.length > 0 || r.source === "rebuilt");
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length); // some candidates were denied quietly: not in the queue
    const queue = await candidates("&queue=1");
    expect(queue.map((r) => [r.runId, r.reviewKey])).toEqual(expected.map((r) => [r.runId, r.reviewKey]));
  });

  // Joined, PostgreSQL took the reviews' rows for a handful and read every candidate and review to sort
  // them (a page 16× slower at 1M events than at 100k, README §Scale): each filter is a lookup per row.
  it("looks each candidate's review up by its key under every queue filter, never joining the reviews whole", async () => {
    for (const filters of [{ reviewed: "no" }, { reviewed: "yes" }, { assignee: "none" }, { assignee: ada.id }] as const) {
      const plan = (
        await db.prisma.$queryRaw<{ "QUERY PLAN": string }[]>`EXPLAIN
          SELECT rr."ordinal" FROM "runs" r JOIN "reviewer_rows" rr ON rr."project_id" = r."project_id" AND rr."run_pk" = r."id"
           WHERE ${candidateConditions(projectA, { queue: true, ...filters }, {})}
           ORDER BY r."started_at" DESC, r."id" DESC, rr."ordinal" LIMIT 51`
      )
        .map((row) => row["QUERY PLAN"])
        .join("\n");
      expect(plan, JSON.stringify(filters)).not.toMatch(/Anti Join|Semi Join/);
      expect(plan, JSON.stringify(filters)).toMatch(/Filter: .*\(SubPlan/);
    }
  });

  it("records a verdict with a comment, keeps what the rules said, and counts it in the progress and the filters", async () => {
    const flagged = all.find((r) => r.findings.length > 0)!;
    const answer = await patch(flagged.runId, flagged.reviewKey, { verdict: "unnecessary", comment: "the budget was short" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const review = ZReview.parse(answer.body);
    expect(review).toMatchObject({
      verdict: "unnecessary",
      comment: "the budget was short",
      reviewer: { personId: null, name: "lead key" },
      ruleFindings: flagged.findings,
      dispatched: flagged.dispatches.length > 0,
      version: 1,
      turn: flagged.turn,
    });

    const reviewed = await candidates("&reviewed=yes");
    expect(reviewed.map((r) => r.reviewKey)).toEqual([flagged.reviewKey]);
    expect(reviewed[0].review?.verdict).toBe("unnecessary");
    expect((await candidates("&reviewed=no")).length).toBe(all.length - 1);

    const inQueue = all.filter((r) => r.dispatches.length > 0 || r.findings.length > 0 || r.source === "rebuilt").length;
    const progress = ZReviewProgress.parse((await get("/api/v1/reviewer/progress?queue=1")).body);
    expect(progress).toEqual({
      total: inQueue,
      reviewed: 1,
      verdicts: { justified: 0, unnecessary: 1, should_dispatch: 0 },
      assignedToYou: 0,
    });

    const runReviews = ZRunReviews.parse((await get(`/api/v1/runs/${flagged.runId}/reviews`)).body);
    expect(runReviews.reviews.map((r) => [r.reviewKey, r.verdict])).toEqual([[flagged.reviewKey, "unnecessary"]]);
  });

  it("refuses a change made on a stale version (409), changes nothing on a no-op, and writes each real change to the audit log", async () => {
    const row = all.find((r) => r.dispatches.length > 0 && r.findings.length === 0) ?? all[1];
    const first = ZReview.parse((await patch(row.runId, row.reviewKey, { verdict: "justified", version: 0 })).body);
    expect(first.version).toBe(1);
    const stale = await patch(row.runId, row.reviewKey, { verdict: "unnecessary", version: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toContain("changed since you read it");

    const same = ZReview.parse((await patch(row.runId, row.reviewKey, { verdict: "justified" })).body);
    expect(same.version).toBe(1);
    const back = ZReview.parse((await patch(row.runId, row.reviewKey, { verdict: null, version: 1 })).body);
    expect(back).toMatchObject({ verdict: null, reviewer: null, reviewedAt: null, version: 2 });

    const entries = ZAuditList.parse(
      (await get(`/api/v1/audit?target=review&targetId=${encodeURIComponent(`${row.runId}/${row.reviewKey}`)}`)).body,
    ).entries;
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["review.verdict", { verdict: "justified", comment: null }, { verdict: null, comment: null, ruleFindings: [] }],
      ["review.verdict", { verdict: null, comment: null }, { verdict: "justified", comment: null, ruleFindings: row.findings }],
    ]);
    expect(entries[0].target.name).toBe(`run ${row.runId}, turn ${row.turn}`);

    // A no-op on a candidate nobody reviewed leaves no row behind.
    const untouched = (await candidates("")).find((r) => r.review === null)!;
    const nothing = ZReview.parse((await patch(untouched.runId, untouched.reviewKey, { verdict: null })).body);
    expect(nothing).toMatchObject({ verdict: null, version: 0 });
    expect(
      await db.prisma.review.count({ where: { projectId: projectA, reviewKey: untouched.reviewKey, run: { runId: untouched.runId } } }),
    ).toBe(0);
  });

  it("keeps another project's candidates and unknown keys out (404), and refuses bad input with the field named", async () => {
    const row = all[0];
    expect((await patch(row.runId, row.reviewKey, { verdict: "justified" }, keyB)).status).toBe(404);
    const unknown = await patch(row.runId, "c:no-such-candidate", { verdict: "justified" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("no Reviewer candidate");
    const bad = await patch(row.runId, row.reviewKey, { verdict: "great" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("verdict");
    const empty = await patch(row.runId, row.reviewKey, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("nothing to change");
    const long = await patch(row.runId, row.reviewKey, { comment: "x".repeat(4_001) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain("comment");
    // Project B's run is not A's, and B's own list never shows A's review.
    const bRows = ZReviewerCandidatesResponse.parse((await get("/api/v1/reviewer/candidates?reviewed=yes", keyB)).body).rows;
    expect(bRows).toEqual([]);
  });

  it("changes a comment alone without taking the verdict from its reviewer", async () => {
    const [given] = await candidates("&reviewed=yes");
    const before = given.review!;
    const edited = ZReview.parse((await patch(given.runId, given.reviewKey, { comment: "on second thought, fine" }, keyA)).body);
    expect(edited).toMatchObject({
      verdict: before.verdict,
      reviewer: before.reviewer,
      reviewedAt: before.reviewedAt,
      comment: "on second thought, fine",
    });
    expect(edited.version).toBe(before.version + 1);
  });

  it("assigns to members only; `assignee=me` is the signed-in person's work, and a key has no `me`", async () => {
    const [one, two] = all.filter((r) => r.review === null).slice(0, 2);
    const toAda = ZReview.parse((await patch(one.runId, one.reviewKey, { assigneeId: ada.id })).body);
    expect(toAda.assignee).toEqual({ personId: ada.id, name: "Ada" });
    await updateReview(db, asPerson(ada), two.runId, two.reviewKey, { assigneeId: bo.id });

    const outsider = await patch(one.runId, one.reviewKey, { assigneeId: cy.id });
    expect(outsider.status).toBe(400);
    expect(outsider.body.error.message).toContain("not a member of this project");

    const keyMe = await get("/api/v1/reviewer/candidates?assignee=me");
    expect(keyMe.status).toBe(400);
    expect(keyMe.body.error.message).toContain("assignee");

    const mine = await reviewProgress(db, projectA, { assignee: "me" }, { personId: ada.id });
    expect(mine).toMatchObject({ total: 1, reviewed: 0, assignedToYou: 1 });
    expect((await candidates(`&assignee=${bo.id}`)).map((r) => r.reviewKey)).toEqual([two.reviewKey]);

    // Ada gives her verdict: it is hers, and it leaves her open work.
    const given = await updateReview(db, asPerson(ada), one.runId, one.reviewKey, { verdict: "should_dispatch", comment: "  " });
    expect(given).toMatchObject({ verdict: "should_dispatch", comment: null, reviewer: { personId: ada.id, name: "Ada" } });
    expect((await reviewProgress(db, projectA, { assignee: "me" }, { personId: ada.id })).assignedToYou).toBe(0);

    // The progress counts what the list lists, under every review filter (it joins the reviews; the list looks each up).
    const reviewFilters: Array<{ reviewed?: "yes" | "no"; assignee?: string }> = [
      { reviewed: "yes" },
      { reviewed: "no" },
      { assignee: "none" },
      { assignee: ada.id },
      { assignee: bo.id },
    ];
    for (const filters of reviewFilters) {
      for (const queue of [false, true]) {
        const query = new URLSearchParams(Object.entries({ ...filters, ...(queue ? { queue: "1" } : {}) }) as [string, string][]);
        const listed = await candidates(`&${query}`);
        const counted = await reviewProgress(db, projectA, { ...filters, queue }, {});
        expect(counted.total, query.toString()).toBe(listed.length);
        expect(counted.reviewed, query.toString()).toBe(listed.filter((r) => r.review?.verdict).length);
      }
    }

    const assigned = ZAuditList.parse((await get("/api/v1/audit?action=review.assign")).body).entries;
    expect(assigned.map((e) => [e.actor.name, e.before, e.after])).toEqual([
      ["Ada", null, { personId: bo.id, name: "Bo" }],
      ["lead key", null, { personId: ada.id, name: "Ada" }],
    ]);
  });

  it("stays with its candidate when the run is rebuilt from scratch, and when a rebuild-only candidate gets the agent's record", async () => {
    const before = await candidates("&reviewed=yes");
    expect(before.length).toBeGreaterThan(0);
    // A candidate reviewed while only the rebuild said it was due had the key t:<turn>; the agent's
    // record of it (the same turn) gives it c:<id>. Here one recorded candidate's review is put back
    // under the key it would have had before.
    const recorded = before.find((r) => r.source === "both")!;
    await db.prisma.$executeRaw`UPDATE "reviews" SET "review_key" = ${`t:${recorded.turn}`}
                                 WHERE "project_id" = ${projectA} AND "review_key" = ${recorded.reviewKey} AND "turn" = ${recorded.turn}`;
    await db.prisma.runDecisionsCache.deleteMany({ where: { projectId: projectA } });
    await db.prisma.$executeRaw`DELETE FROM "reviewer_rows" WHERE "project_id" = ${projectA}`;
    expect(await candidates("&reviewed=yes")).toEqual([]);
    await settleRebuilds(db);
    const after = await candidates("&reviewed=yes");
    expect(after.map((r) => [r.runId, r.reviewKey, r.turn, r.review?.verdict])).toEqual(
      before.map((r) => [r.runId, r.reviewKey, r.turn, r.review?.verdict]),
    );
  });

  it("counts verdicts per week in the zone's weeks, with the 2×2 table of person against rules and their agreement", async () => {
    // Four verdicts at chosen instants: Sunday 2026-11-29 20:00 UTC is Monday 05:00 in Tokyo (the next week there).
    const rows = all.slice(0, 4);
    const plan = [
      { row: rows[0], verdict: "unnecessary", at: "2026-11-24T12:00:00Z", findings: ["DISPATCH_WITHOUT_ADMISSION"] },
      { row: rows[1], verdict: "justified", at: "2026-11-25T12:00:00Z", findings: [] },
      { row: rows[2], verdict: "justified", at: "2026-11-29T20:00:00Z", findings: ["CONCURRENT_DISPATCH"] },
      { row: rows[3], verdict: "should_dispatch", at: "2026-12-01T09:00:00Z", findings: [] },
    ];
    await db.prisma.review.deleteMany({ where: { projectId: projectA } });
    for (const p of plan) {
      await patch(p.row.runId, p.row.reviewKey, { verdict: p.verdict });
      await db.prisma.$executeRaw`UPDATE "reviews" SET "reviewed_at" = ${new Date(p.at)}, "rule_findings" = ${p.findings}::text[]
                                   WHERE "project_id" = ${projectA} AND "review_key" = ${p.row.reviewKey}`;
    }
    const utc = ZReviewTrends.parse((await get("/api/v1/trends/reviews?tz=UTC&from=2026-11-23&to=2026-12-06")).body);
    expect(utc.weeks.map((w) => [w.week, w.verdicts])).toEqual([
      ["2026-11-23", { justified: 2, unnecessary: 1, should_dispatch: 0 }],
      ["2026-11-30", { justified: 0, unnecessary: 0, should_dispatch: 1 }],
    ]);
    // Week one: unnecessary + finding (both wrong), justified + none (neither), justified + finding (rules only): 2 of 3 agree.
    expect(utc.weeks[0].table).toEqual({ bothWrong: 1, personOnly: 0, rulesOnly: 1, neither: 1 });
    expect(utc.weeks[0].agreement).toMatchObject({ k: 2, n: 3 });
    expect(utc.weeks[0].agreement.rate).toBeCloseTo(2 / 3, 10);
    // Wilson 95% for 2 of 3, worked by hand: centre (2/3 + 1.9208/3)/(1 + 3.8415/3), margin 1.96·sqrt(2/27 + 3.8415/36)/(2.2805).
    expect(utc.weeks[0].agreement.low).toBeCloseTo(0.2077, 3);
    expect(utc.weeks[0].agreement.high).toBeCloseTo(0.9385, 3);
    expect(utc.total).toMatchObject({ withFindings: 2, table: { bothWrong: 1, personOnly: 1, rulesOnly: 1, neither: 1 } });

    const tokyo = ZReviewTrends.parse((await get("/api/v1/trends/reviews?tz=Asia/Tokyo&from=2026-11-23&to=2026-12-06")).body);
    expect(tokyo.weeks.map((w) => [w.week, w.verdicts.justified + w.verdicts.unnecessary + w.verdicts.should_dispatch])).toEqual([
      ["2026-11-23", 2],
      ["2026-11-30", 2],
    ]);
    expect((await get("/api/v1/trends/reviews?tz=Mars/Olympus")).status).toBe(400);
  });

  it("reads one candidate's review: as the list shows it, empty before anything was said of it, 404 outside the project or the run", async () => {
    const [reviewed] = await candidates("&reviewed=yes");
    const found = await getOne(reviewed.runId, reviewed.reviewKey);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(ZReview.parse(found.body)).toEqual(reviewed.review);
    expect(found.body.verdict).not.toBeNull();

    // Nothing said of it yet: its empty review, version 0, as a write that changes nothing answers it.
    const rows = await candidates("");
    const open = rows.find((r) => r.review === null && r.source === "rebuilt") ?? rows.find((r) => r.review === null)!;
    const empty = await getOne(open.runId, open.reviewKey);
    expect(empty.status).toBe(200);
    expect(ZReview.parse(empty.body)).toEqual({
      runId: open.runId,
      reviewKey: open.reviewKey,
      turn: open.turn,
      verdict: null,
      comment: null,
      reviewer: null,
      reviewedAt: null,
      ruleFindings: [],
      dispatched: false,
      assignee: null,
      assignedAt: null,
      version: 0,
      updatedAt: new Date(0).toISOString(),
    });
    expect(empty.body).toEqual((await patch(open.runId, open.reviewKey, { verdict: null })).body);

    // Project B's key does not see A's run, nor A's key B's; a key that is no candidate of the run is none.
    const fromB = await getOne(reviewed.runId, reviewed.reviewKey, keyB);
    expect(fromB.status).toBe(404);
    expect(fromB.body.error.message).toContain("no run");
    const [bRow] = ZReviewerCandidatesResponse.parse((await get("/api/v1/reviewer/candidates?runId=rev-b-1&limit=1", keyB)).body).rows;
    expect((await getOne(bRow.runId, bRow.reviewKey, keyB)).status).toBe(200);
    expect((await getOne(bRow.runId, bRow.reviewKey)).status).toBe(404);
    const unknown = await getOne(reviewed.runId, "c:no-such-candidate");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("no Reviewer candidate");
    expect((await getOne(reviewed.runId, "x".repeat(8_001))).status).toBe(400);
  });

  it("filters the audit log by a review's target id longer than 128 characters (a run id of 128, a slash, the key)", async () => {
    const [row] = ZReviewerCandidatesResponse.parse(
      (await get(`/api/v1/reviewer/candidates?runId=${encodeURIComponent(LONG_RUN_ID)}&queue=1&limit=1`, keyB)).body,
    ).rows;
    const answer = await patch(row.runId, row.reviewKey, { verdict: "justified", comment: "a long way" }, keyB);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const targetId = `${LONG_RUN_ID}/${row.reviewKey}`;
    expect(targetId.length).toBeGreaterThan(128);

    const filtered = await get(`/api/v1/audit?target=review&targetId=${encodeURIComponent(targetId)}`, keyB);
    expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
    const entries = ZAuditList.parse(filtered.body).entries;
    expect(entries.map((e) => [e.action, e.target.id, e.after])).toEqual([
      ["review.verdict", targetId, { verdict: "justified", comment: "a long way", ruleFindings: row.findings }],
    ]);
    // Another project's log has no such entry.
    expect(ZAuditList.parse((await get(`/api/v1/audit?targetId=${encodeURIComponent(targetId)}`)).body).entries).toEqual([]);
    expect(ZReview.parse((await getOne(row.runId, row.reviewKey, keyB)).body)).toEqual(ZReview.parse(answer.body));
  });
});
