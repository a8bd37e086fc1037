import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SAVED_VIEWS, ZSavedView, ZSavedViewList, type TSavedView } from "@/lib/contracts";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { createSession, SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { useDatabase, type Database } from "@/lib/server/db";
import { createViewRoute, deleteViewRoute, listViewsRoute, updateViewRoute } from "@/lib/server/http/view-routes";
import { testDatabases } from "@/lib/server/testing/databases";

const ORIGIN = "http://127.0.0.1:3000";

describe.each(testDatabases())("saved views on $name", (kind) => {
  let db: Database;
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    keyA = (await createKey(db, "views-a")).secret;
    keyB = (await createKey(db, "views-b")).secret;
  }, 60_000);
  afterAll(async () => db?.close());

  const headers = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
  const list = async (key: string, query = "") =>
    ZSavedViewList.parse(await (await listViewsRoute(new Request(`${ORIGIN}/api/v1/views${query}`, { headers: headers(key) }))).json())
      .views;
  const create = (key: string, body: unknown, extra: Record<string, string> = {}) =>
    createViewRoute(
      new Request(`${ORIGIN}/api/v1/views`, {
        method: "POST",
        headers: { ...headers(key), "content-type": "application/json", ...extra },
        body: JSON.stringify(body),
      }),
    );
  const patch = (key: string, id: string, body: unknown, extra: Record<string, string> = {}) =>
    updateViewRoute(
      new Request(`${ORIGIN}/api/v1/views/${id}`, {
        method: "PATCH",
        headers: { ...headers(key), "content-type": "application/json", ...extra },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ id }) },
    );
  const remove = (key: string, id: string, extra: Record<string, string> = {}) =>
    deleteViewRoute(new Request(`${ORIGIN}/api/v1/views/${id}`, { method: "DELETE", headers: { ...headers(key), ...extra } }), {
      params: Promise.resolve({ id }),
    });

  it("saves a page's query under a name (without its cursor), lists it by page, renames, changes and deletes it", async () => {
    const created = await create(keyA, {
      page: "runs",
      name: "  Drops this week ",
      query: "hasDrops=1&range=7d&cursor=abc&sort=-dropRate",
    });
    expect(created.status).toBe(201);
    const view: TSavedView = ZSavedView.parse(await created.json());
    expect(view).toMatchObject({ page: "runs", name: "Drops this week", query: "hasDrops=1&range=7d&sort=-dropRate" });
    expect((await create(keyA, { page: "reviewer", name: "Drops this week", query: "violations=1" })).status).toBe(201);

    expect((await list(keyA, "?page=runs")).map((v) => v.name)).toEqual(["Drops this week"]);
    expect((await list(keyA)).map((v) => `${v.page}:${v.name}`)).toEqual(["reviewer:Drops this week", "runs:Drops this week"]);

    const renamed = await patch(keyA, view.id, { name: "Dropping runs" });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: view.id, name: "Dropping runs", query: "hasDrops=1&range=7d&sort=-dropRate" });
    const changed = await patch(keyA, view.id, { query: "finding=FREE_REQUEST" });
    expect(await changed.json()).toMatchObject({ name: "Dropping runs", query: "finding=FREE_REQUEST" });

    expect((await remove(keyA, view.id)).status).toBe(204);
    expect((await list(keyA, "?page=runs")).map((v) => v.name)).toEqual([]);
    expect((await remove(keyA, view.id)).status).toBe(404);
  });

  it("keeps names unique per project and page (409), and answers 400 naming the field", async () => {
    expect((await create(keyA, { page: "runs", name: "Twice", query: "" })).status).toBe(201);
    const again = await create(keyA, { page: "runs", name: "Twice", query: "sort=findings" });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: "conflict", path: "name" });
    const other = ZSavedView.parse(await (await create(keyA, { page: "runs", name: "Other", query: "" })).json());
    expect((await patch(keyA, other.id, { name: "Twice" })).status).toBe(409);
    // Another project may use the same name.
    expect((await create(keyB, { page: "runs", name: "Twice", query: "" })).status).toBe(201);

    for (const [body, path] of [
      [{ page: "copy", name: "x", query: "" }, "page"],
      [{ page: "runs", name: " ", query: "" }, "name"],
      [{ page: "runs", name: "x".repeat(81), query: "" }, "name"],
      [{ page: "runs", name: "a\u0000b", query: "" }, "name"],
      [{ page: "runs", name: "x", query: "?sort=findings" }, "query"],
      [{ page: "runs", name: "x", query: "q=a b" }, "query"],
      [{ page: "runs", name: "x", query: "q=".padEnd(2001, "a") }, "query"],
    ] as const) {
      const response = await create(keyA, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).error.path).toBe(path);
    }
    expect((await patch(keyA, other.id, {})).status).toBe(400);
  });

  it("holds the cap under a race: of 120 creates at once on one page, exactly MAX_SAVED_VIEWS are stored and the rest get 409", async () => {
    const key = (await createKey(db, "views-race")).secret;
    const tries = MAX_SAVED_VIEWS + 20;
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) => create(key, { page: "runs", name: `Race ${i}`, query: `agent=a${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_SAVED_VIEWS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(tries - MAX_SAVED_VIEWS);
    const refused = await answers.find((a) => a.status === 409)!.json();
    expect(refused.error).toMatchObject({
      code: "conflict",
      message: `a page keeps at most ${MAX_SAVED_VIEWS} saved views: delete one first`,
    });
    expect(await list(key, "?page=runs")).toHaveLength(MAX_SAVED_VIEWS);
    // The cap is per page: the other page still takes views, and a deleted one makes room for one more.
    expect((await create(key, { page: "reviewer", name: "Race other page", query: "" })).status).toBe(201);
    const stored = await list(key, "?page=runs");
    expect((await remove(key, stored[0].id)).status).toBe(204);
    expect((await create(key, { page: "runs", name: "Race after delete", query: "" })).status).toBe(201);
    expect((await create(key, { page: "runs", name: "Race one too many", query: "" })).status).toBe(409);
  });

  it("keeps each project's views to itself: another key neither lists, renames nor deletes them", async () => {
    const mine = ZSavedView.parse(
      await (await create(keyA, { page: "reviewer", name: "Mine only", query: "code=CONCURRENT_DISPATCH" })).json(),
    );
    expect((await list(keyB)).map((v) => v.name)).not.toContain("Mine only");
    expect((await patch(keyB, mine.id, { name: "Stolen" })).status).toBe(404);
    expect((await remove(keyB, mine.id)).status).toBe(404);
    expect((await list(keyA, "?page=reviewer")).find((v) => v.id === mine.id)?.name).toBe("Mine only");
  });

  it("refuses a cookie-authenticated POST, PATCH or DELETE from another origin with 403, and takes the app's own", async () => {
    const caller = await authenticate(db, `Bearer ${keyA}`);
    const { token } = await createSession(db, caller);
    const cookie = `${SESSION_COOKIE}=${token}`;
    const cross = { host: "127.0.0.1:3000", origin: "http://evil.test", "sec-fetch-site": "cross-site" };
    const session = (extra: Record<string, string>) => ({ cookie, ...extra });
    const post = (extra: Record<string, string>) =>
      createViewRoute(
        new Request(`${ORIGIN}/api/v1/views`, {
          method: "POST",
          headers: { "content-type": "application/json", ...session(extra) },
          body: JSON.stringify({ page: "runs", name: "From a page", query: "" }),
        }),
      );
    expect((await post(cross)).status).toBe(403);
    const made = await post({ host: "127.0.0.1:3000", origin: ORIGIN, "sec-fetch-site": "same-origin" });
    expect(made.status).toBe(201);
    const { id } = ZSavedView.parse(await made.json());
    const call = (method: string, extra: Record<string, string>) =>
      (method === "PATCH" ? updateViewRoute : deleteViewRoute)(
        new Request(`${ORIGIN}/api/v1/views/${id}`, {
          method,
          headers: { "content-type": "application/json", ...session(extra) },
          ...(method === "PATCH" ? { body: JSON.stringify({ name: "Renamed" }) } : {}),
        }),
        { params: Promise.resolve({ id }) },
      );
    expect((await call("PATCH", cross)).status).toBe(403);
    expect((await call("DELETE", cross)).status).toBe(403);
    expect((await list(keyA, "?page=runs")).find((v) => v.id === id)?.name).toBe("From a page");
    expect((await call("DELETE", { host: "127.0.0.1:3000", origin: ORIGIN })).status).toBe(204);
  });
});
