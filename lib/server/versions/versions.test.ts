import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZCopyVersion, ZCopyVersionList, ZPolicyVersion, ZPolicyVersionList } from "@/lib/contracts";
import { createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { StoredDataError } from "@/lib/server/db/json-columns";
import {
  createCopyVersionRoute,
  createPolicyVersionRoute,
  defaultCopyVersionRoute,
  defaultPolicyVersionRoute,
  getCopyVersionRoute,
  getPolicyVersionRoute,
} from "@/lib/server/http/version-routes";
import { testDatabases } from "@/lib/server/testing/databases";
import { getCopyVersion } from "./versions";
import { routeOf } from "@/lib/server/http/api";
import { copyVersionsApi, policyVersionsApi } from "@/lib/endpoints";

const listCopyVersionsRoute = routeOf(copyVersionsApi.list);
const listPolicyVersionsRoute = routeOf(policyVersionsApi.list);

describe.each(testDatabases())("copy and policy versions on $name", (kind) => {
  let db: Database;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "product", "Maya (product)")).secret;
    otherKey = (await createKey(db, "elsewhere")).secret;
  }, 60_000);
  afterAll(async () => db?.close());

  /** Any of the routes: their context types differ, and each is given the one it expects. */
  const send = (route: (request: Request, context?: never) => Promise<Response>, body?: unknown, id?: string, secret = key) =>
    route(
      new Request("http://cuescope.test/api/v1/x", {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      (id ? { params: Promise.resolve({ id }) } : undefined) as never,
    );

  it("saves a copy version once, records who saved it, and lists and reads it back", async () => {
    const response = await send(createCopyVersionRoute, {
      name: "v1 shorter context",
      note: "fits tight turns",
      copy: { context: { "*": "Ctx {requiredBytes}/{capacityBytes} B" } },
    });
    expect(response.status).toBe(201);
    const saved = ZCopyVersion.parse(await response.json());
    expect(saved).toMatchObject({ name: "v1 shorter context", savedBy: "Maya (product)", isDefault: false, parentId: null });

    const child = ZCopyVersion.parse(
      await (
        await send(createCopyVersionRoute, {
          name: "v2",
          parentId: saved.id,
          copy: { context: { "*": "C {percent}%" } },
          makeDefault: true,
        })
      ).json(),
    );
    expect(child).toMatchObject({ parentId: saved.id, isDefault: true });

    const list = ZCopyVersionList.parse(await (await send(listCopyVersionsRoute)).json());
    expect(list.versions.map((v) => [v.name, v.isDefault])).toEqual([
      ["v2", true],
      ["v1 shorter context", false],
    ]);
    expect(ZCopyVersion.parse(await (await send(getCopyVersionRoute, undefined, saved.id)).json()).copy).toEqual({
      context: { "*": "Ctx {requiredBytes}/{capacityBytes} B" },
    });

    const back = ZCopyVersion.parse(await (await send(defaultCopyVersionRoute, {}, saved.id)).json());
    expect(back.isDefault).toBe(true);
  });

  it.each([
    [{ name: "bad", copy: { context: { "*": "Ctx {bytes}" } } }, 400, "copy.context.*", /unknown placeholder \{bytes\}/],
    [{ name: "v1 shorter context", copy: { context: { "*": "x" } } }, 409, "name", /already exists/],
    [{ name: "orphan", parentId: "nope", copy: {} }, 400, "parentId", /does not exist/],
    [{ name: "", copy: {} }, 400, "name", /needs a name/],
  ])("refuses %j with %i naming %s", async (body, status, path, message) => {
    const response = await send(createCopyVersionRoute, body);
    expect(response.status).toBe(status);
    const { error } = await response.json();
    expect(error.path).toBe(path);
    expect(error.message).toMatch(message);
  });

  it("answers concurrent saves of one name with one version and 409s, never a 500", async () => {
    const body = (i: number) => ({
      name: "raced name",
      note: `sender ${i}`,
      copy: { review: { "*": `Checkpoint {checkpoint}: review (${i}).` } },
    });
    const statuses = (await Promise.all(Array.from({ length: 8 }, (_, i) => send(createCopyVersionRoute, body(i))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    const list = ZCopyVersionList.parse(await (await send(listCopyVersionsRoute)).json());
    expect(list.versions.filter((v) => v.name === "raced name")).toHaveLength(1);
  });

  it("validates policy versions: stages strictly ascending", async () => {
    const bad = await send(createPolicyVersionRoute, { name: "p-bad", policy: { requests: { limit: 60, stages: [0.9, 0.5] } } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.path).toBe("policy.requests.stages.1");
    const good = ZPolicyVersion.parse(
      await (await send(createPolicyVersionRoute, { name: "p1", policy: { requests: { limit: 60, stages: [0.5, 0.9] } } })).json(),
    );
    expect(good.policy.requests).toEqual({ limit: 60, deliveryReserve: 0, stages: [0.5, 0.9] });
  });

  it("saves, lists, reads and marks policy versions the way it does copy versions", async () => {
    const { secret } = await createKey(db, "policy versions", "Pia (ops)");
    const save = (body: object) => send(createPolicyVersionRoute, body, undefined, secret);
    const first = ZPolicyVersion.parse(
      await (await save({ name: "p-a", note: "tight", policy: { time: { limitMs: 60_000, stages: [0.5] } } })).json(),
    );
    expect(first).toMatchObject({ kind: "policy", name: "p-a", note: "tight", parentId: null, isDefault: false, savedBy: "Pia (ops)" });
    const second = await save({ name: "p-b", parentId: first.id, makeDefault: true, policy: {} });
    expect(second.status).toBe(201);
    expect(ZPolicyVersion.parse(await second.json())).toMatchObject({ parentId: first.id, isDefault: true, policy: {} });
    const list = ZPolicyVersionList.parse(await (await send(listPolicyVersionsRoute, undefined, undefined, secret)).json());
    expect(list.versions.map((v) => [v.name, v.isDefault])).toEqual([
      ["p-b", true],
      ["p-a", false],
    ]);
    expect(ZPolicyVersion.parse(await (await send(getPolicyVersionRoute, undefined, first.id, secret)).json()).policy).toEqual({
      time: { limitMs: 60_000, stages: [0.5] },
    });
    const back = ZPolicyVersion.parse(await (await send(defaultPolicyVersionRoute, {}, first.id, secret)).json());
    expect([back.id, back.isDefault]).toEqual([first.id, true]);
    // A policy default leaves the copy default alone.
    expect(ZCopyVersionList.parse(await (await send(listCopyVersionsRoute, undefined, undefined, secret)).json()).versions).toEqual([]);
  });

  it.each([
    ["copy", createCopyVersionRoute, getCopyVersionRoute, defaultCopyVersionRoute, { copy: {} }],
    ["policy", createPolicyVersionRoute, getPolicyVersionRoute, defaultPolicyVersionRoute, { policy: {} }],
  ] as const)("answers every %s version error with its status, path and message", async (kind, create, get, makeDefault, document) => {
    const { secret } = await createKey(db, `${kind} version errors`);
    const answer = async (response: Promise<Response>) => {
      const r = await response;
      return [r.status, (await r.json()).error] as const;
    };
    expect((await send(create, { name: "taken", ...document }, undefined, secret)).status).toBe(201);
    expect(await answer(send(create, { name: "taken", ...document }, undefined, secret))).toEqual([
      409,
      {
        code: "conflict",
        message: `a ${kind} version named "taken" already exists; saved versions never change — pick a new name`,
        path: "name",
      },
    ]);
    expect(await answer(send(create, { name: "orphan", parentId: "gone", ...document }, undefined, secret))).toEqual([
      400,
      { code: "invalid", message: `the parent ${kind} version "gone" does not exist in this project`, path: "parentId" },
    ]);
    for (const route of [get, makeDefault]) {
      expect(await answer(send(route, route === get ? undefined : {}, "missing", secret))).toEqual([
        404,
        { code: "not_found", message: `no ${kind} version "missing" in this project`, path: "id" },
      ]);
    }
  });

  it("keeps projects apart", async () => {
    const list = ZCopyVersionList.parse(await (await send(listCopyVersionsRoute, undefined, undefined, otherKey)).json());
    expect(list.versions).toEqual([]);
    const mine = ZCopyVersionList.parse(await (await send(listCopyVersionsRoute)).json()).versions[0];
    expect((await send(getCopyVersionRoute, undefined, mine.id, otherKey)).status).toBe(404);
  });

  it("answers a stored version that no longer parses with a 500, logged naming the table, row and path", async () => {
    const { secret } = await createKey(db, "corrupted versions");
    const project = await db.prisma.project.findUniqueOrThrow({ where: { name: "corrupted versions" } });
    const row = await db.prisma.copyVersion.create({
      data: { projectId: project.id, name: "hand-edited", savedBy: "test", copy: { context: { "*": 42 } } },
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await send(getCopyVersionRoute, undefined, row.id, secret);
      expect(response.status).toBe(500);
      expect(String(logged.mock.calls[0]?.[1])).toMatch(
        new RegExp(`stored copy_versions\\.copy of row "${row.id}" does not match its schema: context\\.\\*`),
      );
      await expect(getCopyVersion(db, project.id, row.id)).rejects.toThrow(StoredDataError);
    } finally {
      logged.mockRestore();
    }
  });
});
