import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_COMMENT_CHARS,
  MAX_COMMENT_PAGE_CHARS,
  ZComment,
  ZCommentList,
  ZCommentedTurns,
  ZRunListResponse,
  type TComment,
} from "@/lib/contracts";
import { createKey } from "@/lib/server/auth/keys";
import { createSession, SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { useDatabase, type Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { smallRun } from "@/lib/server/testing/events";
import { createCommentRoute, deleteCommentRoute, editCommentRoute } from "./comment-routes";
import { routeOf } from "@/lib/server/http/api";
import { commentsApi, runsApi } from "@/lib/endpoints";

const commentedTurnsRoute = routeOf(commentsApi.turns);
const listCommentsRoute = routeOf(commentsApi.list);
const listRunsRoute = routeOf(runsApi.list);

const ORIGIN = "http://127.0.0.1:3000";

type Auth = { authorization: string } | { cookie: string };

function request(auth: Auth, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}/api/v1/runs${path}`, {
    method,
    headers: { host: "127.0.0.1:3000", ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const runParams = (runId: string) => ({ params: Promise.resolve({ runId }) });
const commentParams = (runId: string, commentId: string) => ({ params: Promise.resolve({ runId, commentId }) });

describe.each(testDatabases())("comments over HTTP on $name", (kind) => {
  let db: Database;
  /** Two keys of project A (alice, bob) and one of project B. */
  let alice: Auth;
  let bob: Auth;
  let other: Auth;

  const post = async (auth: Auth, runId: string, body: unknown, headers?: Record<string, string>) =>
    createCommentRoute(request(auth, "POST", `/${runId}/comments`, body, headers), runParams(runId));
  const list = async (auth: Auth, runId: string, query = "") =>
    listCommentsRoute(request(auth, "GET", `/${runId}/comments${query}`), runParams(runId));
  const patch = async (auth: Auth, runId: string, id: string, body: unknown, headers?: Record<string, string>) =>
    editCommentRoute(request(auth, "PATCH", `/${runId}/comments/${id}`, body, headers), commentParams(runId, id));
  const remove = async (auth: Auth, runId: string, id: string, headers?: Record<string, string>) =>
    deleteCommentRoute(request(auth, "DELETE", `/${runId}/comments/${id}`, undefined, headers), commentParams(runId, id));
  const created = async (auth: Auth, runId: string, body: unknown): Promise<TComment> => {
    const response = await post(auth, runId, body);
    expect(response.status, await response.clone().text()).toBe(201);
    return ZComment.parse(await response.json());
  };
  const countOf = async (auth: Auth, runId: string) => {
    const response = await listRunsRoute(new Request(`${ORIGIN}/api/v1/runs?limit=200`, { headers: { ...auth } }));
    return ZRunListResponse.parse(await response.json()).runs.find((r) => r.runId === runId)?.commentCount;
  };

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    const a1 = await createKey(db, "comments-a", "Alice");
    const a2 = await createKey(db, "comments-a");
    const b = await createKey(db, "comments-b", "Mallory");
    alice = { authorization: `Bearer ${a1.secret}` };
    bob = { authorization: `Bearer ${a2.secret}` };
    other = { authorization: `Bearer ${b.secret}` };
    const projectA = await db.prisma.project.findUniqueOrThrow({ where: { name: "comments-a" } });
    const projectB = await db.prisma.project.findUniqueOrThrow({ where: { name: "comments-b" } });
    await ingestBatch(db, projectA.id, [
      ...smallRun("shared", 5),
      ...smallRun("pages", 3),
      ...smallRun("rendered", 2),
      ...smallRun("heavy", 2),
    ]);
    // Project B has a run of the same id: ids are per project.
    await ingestBatch(db, projectB.id, smallRun("shared", 5));
  }, 60_000);
  afterAll(async () => db?.close());

  it("writes a run comment and a turn comment as the caller's key, lists them oldest first, and counts them on the run", async () => {
    const note = await created(alice, "shared", { body: "**Look** at the drops" });
    expect(note).toMatchObject({ runId: "shared", turn: null, body: "**Look** at the drops", mine: true, editedAt: null });
    expect(note.author).toEqual({ name: "Alice", keyPrefix: expect.stringMatching(/^cs_/) });
    const onTurn = await created(bob, "shared", { body: "turn 2 drops a reminder", turn: 2 });
    expect(onTurn.author.name).toMatch(/^key cs_.{7}…$/);

    const all = ZCommentList.parse(await (await list(alice, "shared")).json());
    expect(all.comments.map((c) => [c.id, c.mine])).toEqual([
      [note.id, true],
      [onTurn.id, false],
    ]);
    expect(ZCommentList.parse(await (await list(alice, "shared", "?turn=run")).json()).comments.map((c) => c.id)).toEqual([note.id]);
    expect(ZCommentList.parse(await (await list(alice, "shared", "?turn=2")).json()).comments.map((c) => c.id)).toEqual([onTurn.id]);
    expect(ZCommentList.parse(await (await list(alice, "shared", "?turn=3")).json()).comments).toEqual([]);

    const turns = ZCommentedTurns.parse(
      await (await commentedTurnsRoute(request(alice, "GET", "/shared/comments/turns"), runParams("shared"))).json(),
    );
    expect(turns).toEqual({ turns: [{ turn: 2, count: 1 }], truncated: false });
    expect(await countOf(alice, "shared")).toBe(2);
    expect(await countOf(other, "shared")).toBe(0);
  });

  it("renders the body once when it is written and serves the stored HTML: a read renders nothing again", async () => {
    const note = await created(alice, "rendered", { body: "**Look** at <b>this</b>\n[docs](https://e.com/d)" });
    const html =
      '<p><strong>Look</strong> at &lt;b&gt;this&lt;/b&gt;<br />\n<a href="https://e.com/d" rel="noopener noreferrer nofollow" target="_blank">docs</a></p>\n';
    expect(note.html).toBe(html);
    const row = () => db.prisma.comment.findFirstOrThrow({ where: { id: note.id }, select: { bodyHtml: true } });
    expect((await row()).bodyHtml).toBe(html);
    const listed = async () => ZCommentList.parse(await (await list(alice, "rendered")).json()).comments.find((c) => c.id === note.id)!;
    expect((await listed()).html).toBe(html);

    // What a read serves is the stored column, whatever the body says.
    await db.prisma.comment.updateMany({ where: { id: note.id }, data: { bodyHtml: "<p>as stored</p>\n" } });
    expect((await listed()).html).toBe("<p>as stored</p>\n");

    // An edit renders the new text and stores it.
    const edited = ZComment.parse(await (await patch(alice, "rendered", note.id, { body: "*second* `x<y`" })).json());
    expect(edited.html).toBe("<p><em>second</em> <code>x&lt;y</code></p>\n");
    expect((await row()).bodyHtml).toBe(edited.html);
    expect((await listed()).html).toBe(edited.html);
  });

  it("a comment without stored HTML (written by an older server since the back-fill) is rendered when read", async () => {
    const note = await created(alice, "rendered", { body: "- a\n- b" });
    await db.prisma.comment.updateMany({ where: { id: note.id }, data: { bodyHtml: null } });
    const page = ZCommentList.parse(await (await list(alice, "rendered")).json());
    expect(page.comments.find((c) => c.id === note.id)?.html).toBe("<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
  });

  it("a page of comments ends before its bodies and HTML pass the page's budget, and the next page goes on from there", async () => {
    // 10,000 characters of empty links: each renders to 102,008 characters of HTML (51 per link, 8 for <p></p>\n).
    const body = "[](/)".repeat(MAX_COMMENT_CHARS / 5);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await created(alice, "heavy", { body })).id);
    const sizes: number[] = [];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await list(alice, "heavy", `?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
      const page = ZCommentList.parse(await response.json());
      expect(page.comments.every((c) => c.html.length === 102_008)).toBe(true);
      sizes.push(page.comments.length);
      seen.push(...page.comments.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    // 112,008 characters a comment: 8 fit in 1,000,000 (896,064), 9 do not (1,008,072).
    expect(MAX_COMMENT_PAGE_CHARS).toBe(1_000_000);
    expect(sizes).toEqual([8, 4]);
  }, 120_000);

  it("pages with a keyset cursor and refuses a forged one", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await created(alice, "pages", { body: `note ${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await list(alice, "pages", `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      const page = ZCommentList.parse(await response.json());
      expect(page.comments.length).toBeLessThanOrEqual(2);
      seen.push(...page.comments.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    const forged = await list(alice, "pages", `?cursor=${Buffer.from('{"t":"x","id":"y"}').toString("base64url")}`);
    expect(forged.status).toBe(400);
    expect((await forged.json()).error).toMatchObject({ code: "invalid", path: "cursor" });
  });

  it.each([
    ["an empty body", { body: "" }, "body"],
    ["white space only", { body: "  \n " }, "body"],
    ["a body over the limit", { body: "x".repeat(MAX_COMMENT_CHARS + 1) }, "body"],
    ["a negative turn", { body: "x", turn: -1 }, "turn"],
    ["a turn the run does not have", { body: "x", turn: 5 }, "turn"],
    ["an unknown field", { body: "x", author: "someone else" }, ""],
  ])("refuses %s with 400 naming the field", async (_, body, path) => {
    const response = await post(alice, "shared", body);
    expect(response.status).toBe(400);
    const error = (await response.json()).error;
    expect(error.code).toBe("invalid");
    if (path) expect(error.path).toBe(path);
    expect(error.message).toMatch(/^body/);
  });

  it("names the limit when the body is too long", async () => {
    const response = await post(alice, "shared", { body: "x".repeat(MAX_COMMENT_CHARS + 1) });
    expect((await response.json()).error.message).toBe(
      `body.body: expected a comment of 1-10000 characters, got ${MAX_COMMENT_CHARS + 1} characters`,
    );
    expect((await post(alice, "shared", { body: "x".repeat(MAX_COMMENT_CHARS) })).status).toBe(201);
    await db.prisma.comment.deleteMany({ where: { body: "x".repeat(MAX_COMMENT_CHARS) } });
    await db.prisma.run.updateMany({
      where: { runId: "shared", project: { name: "comments-a" } },
      data: { commentCount: { decrement: 1 } },
    });
  });

  it("edits and deletes only your own comment: another key of the project gets 403 and changes nothing", async () => {
    const mine = await created(alice, "shared", { body: "first thought", turn: 1 });
    const before = await countOf(alice, "shared");

    const refusedEdit = await patch(bob, "shared", mine.id, { body: "rewritten by bob" });
    expect(refusedEdit.status).toBe(403);
    expect((await refusedEdit.json()).error).toMatchObject({
      code: "forbidden",
      message: "only its author may edit a comment: this one was written by Alice",
    });
    const refusedDelete = await remove(bob, "shared", mine.id);
    expect(refusedDelete.status).toBe(403);
    expect((await refusedDelete.json()).error.message).toMatch(/only its author may delete a comment/);

    const edited = ZComment.parse(await (await patch(alice, "shared", mine.id, { body: "second thought" })).json());
    expect(edited).toMatchObject({ id: mine.id, body: "second thought", turn: 1, createdAt: mine.createdAt });
    expect(edited.editedAt).not.toBeNull();
    expect((await patch(alice, "shared", mine.id, { body: "" })).status).toBe(400);

    expect(await (await remove(alice, "shared", mine.id)).json()).toEqual({ id: mine.id, deleted: true });
    expect(await countOf(alice, "shared")).toBe(before! - 1);
    expect((await remove(alice, "shared", mine.id)).status).toBe(404);
    expect((await patch(alice, "shared", mine.id, { body: "again" })).status).toBe(404);
  });

  it("isolation: another project sees none of these comments and cannot change them, even on a run of the same id", async () => {
    const secret = await created(alice, "shared", { body: "project A only", turn: 3 });
    expect(ZCommentList.parse(await (await list(other, "shared")).json()).comments).toEqual([]);
    const turns = await commentedTurnsRoute(request(other, "GET", "/shared/comments/turns"), runParams("shared"));
    expect(ZCommentedTurns.parse(await turns.json()).turns).toEqual([]);
    // A run only project A has is not found for B.
    expect((await list(other, "pages")).status).toBe(404);
    expect((await post(other, "pages", { body: "hello" })).status).toBe(404);
    for (const response of [await patch(other, "shared", secret.id, { body: "hijacked" }), await remove(other, "shared", secret.id)]) {
      expect(response.status).toBe(404);
      expect((await response.json()).error.message).toMatch(/no comment .* in this project/);
    }
    // A comment of A addressed through another of A's runs is not found either.
    expect((await patch(alice, "pages", secret.id, { body: "moved" })).status).toBe(404);
    const stored = await db.prisma.comment.findFirstOrThrow({ where: { id: secret.id } });
    expect(stored.body).toBe("project A only");
    // B's comment on its own "shared" run is B's alone.
    const theirs = await created(other, "shared", { body: "project B's note" });
    expect(ZCommentList.parse(await (await list(alice, "shared")).json()).comments.map((c) => c.id)).not.toContain(theirs.id);
  });

  it("a browser session writes as its key; a cookie-authenticated write must come from the app's own pages", async () => {
    const key = await createKey(db, "comments-a", "Alice's browser");
    const caller = {
      projectId: (await db.prisma.project.findUniqueOrThrow({ where: { name: "comments-a" } })).id,
      project: "comments-a",
      key: { id: key.key.id, prefix: key.key.prefix, label: key.key.label },
    };
    const { token } = await createSession(db, caller);
    const session: Auth = { cookie: `${SESSION_COOKIE}=${token}` };
    for (const headers of <Record<string, string>[]>[{ origin: "http://evil.test" }, { "sec-fetch-site": "cross-site" }, {}]) {
      const response = await post(session, "shared", { body: "csrf" }, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await response.json()).error.message).toMatch(/cross-origin request refused/);
    }
    const ok = await post(session, "shared", { body: "from the page" }, { "sec-fetch-site": "same-origin" });
    expect(ok.status).toBe(201);
    const note = ZComment.parse(await ok.json());
    expect(note.author.name).toBe("Alice's browser");
    expect((await patch(session, "shared", note.id, { body: "x" }, { origin: "http://evil.test" })).status).toBe(403);
    expect((await remove(session, "shared", note.id, { origin: "http://evil.test" })).status).toBe(403);
    expect((await remove(session, "shared", note.id, { origin: ORIGIN })).status).toBe(200);
    // Reading needs no Origin.
    expect((await list(session, "shared")).status).toBe(200);
  });

  it("refuses bad parameters with 400 naming them", async () => {
    const bad = await list(alice, "shared", "?turn=first");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.path).toBe("turn");
    const notJson = await post(alice, "shared", "{not json");
    expect(notJson.status).toBe(400);
    const long = await patch(alice, "shared", "x".repeat(200), { body: "y" });
    expect(long.status).toBe(400);
    expect((await long.json()).error.path).toBe("commentId");
  });
});
