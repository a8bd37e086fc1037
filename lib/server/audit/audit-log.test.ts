import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REVIEW_TARGET_ID_CHARS, ZAuditList, ZComment, ZCopyVersion, ZExperiment, type TAuditEntry } from "@/lib/contracts";
import { auditApi, commentsApi, copyVersionsApi, experimentsApi } from "@/lib/endpoints";
import { authenticate, createKey, revokeKey } from "@/lib/server/auth/keys";
import { createSession, SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { testDatabases } from "@/lib/server/testing/databases";
import { smallRun } from "@/lib/server/testing/events";

const ORIGIN = "http://127.0.0.1:3000";
/** The private peer header scripts/server.mjs sets (here set by the test, as the server would). */
const PEER = "x-cuescope-peer-audit-test";

const route = {
  list: routeOf(auditApi.list),
  export: routeOf(auditApi.export),
  createCopy: routeOf(copyVersionsApi.create),
  makeDefault: routeOf(copyVersionsApi.makeDefault),
  createExperiment: routeOf(experimentsApi.create),
  updateExperiment: routeOf(experimentsApi.update),
  startExperiment: routeOf(experimentsApi.start),
  stopExperiment: routeOf(experimentsApi.stop),
  promote: routeOf(experimentsApi.promote),
  createComment: routeOf(commentsApi.create),
  deleteComment: routeOf(commentsApi.delete),
};

type Headers = Record<string, string>;

function call(handler: (typeof route)[keyof typeof route], method: string, path: string, headers: Headers, body?: unknown, params = {}) {
  return handler(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { host: "127.0.0.1:3000", ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
}

describe.each(testDatabases())("the audit log on $name", (kind) => {
  let db: Database;
  let projectId: string;
  /** Lead's key (labelled), sent as Bearer from 203.0.113.7; the same key's browser session from 198.51.100.2. */
  let lead: Headers;
  let leadKeyId: string;
  let browser: Headers;
  /** A key of another project. */
  let other: Headers;

  beforeAll(async () => {
    process.env.CUESCOPE_PEER_HEADER = PEER;
    db = await kind.open();
    useDatabase(db);
    const created = await createKey(db, "audit-a", "lead");
    leadKeyId = created.key.id;
    const caller = await authenticate(db, `Bearer ${created.secret}`);
    projectId = caller.projectId;
    lead = { authorization: `Bearer ${created.secret}`, [PEER]: "203.0.113.7" };
    const { token } = await createSession(db, caller);
    browser = {
      cookie: `${SESSION_COOKIE}=${token}`,
      origin: ORIGIN,
      "sec-fetch-site": "same-origin",
      [PEER]: "::ffff:198.51.100.2",
    };
    other = { authorization: `Bearer ${(await createKey(db, "audit-b", "outsider")).secret}`, [PEER]: "192.0.2.9" };
    await ingestBatch(db, projectId, smallRun("audited", 2));
  }, 60_000);
  afterAll(async () => {
    delete process.env.CUESCOPE_PEER_HEADER;
    await db?.close();
  });

  async function entries(headers: Headers, query = ""): Promise<TAuditEntry[]> {
    const response = await call(route.list, "GET", `/api/v1/audit${query}`, headers);
    expect(response.status, await response.clone().text()).toBe(200);
    return ZAuditList.parse(await response.json()).entries;
  }
  async function ok<T>(response: Promise<Response>, status: number, parse: (body: unknown) => T): Promise<T> {
    const answer = await response;
    expect(answer.status, await answer.clone().text()).toBe(status);
    return parse(await answer.json());
  }
  const newest = async (n: number) => (await entries(lead, `?limit=${n}`)).reverse();

  it("records each change with who (key, session), when, from where, and before → after; a no-op records nothing", async () => {
    const before = Date.now();
    const first = await ok(
      call(route.createCopy, "POST", "/api/v1/copy-versions", lead, { name: "v1", copy: {}, makeDefault: true }),
      201,
      (b) => ZCopyVersion.parse(b),
    );
    const second = await ok(
      call(route.createCopy, "POST", "/api/v1/copy-versions", browser, { name: "v2", note: "shorter", copy: {}, parentId: first.id }),
      201,
      (b) => ZCopyVersion.parse(b),
    );
    const makeSecondDefault = () =>
      call(route.makeDefault, "POST", `/api/v1/copy-versions/${second.id}/default`, browser, undefined, { id: second.id });
    await ok(makeSecondDefault(), 200, (b) => b);
    await ok(makeSecondDefault(), 200, (b) => b); // already the default: no change, no entry

    const recorded = await newest(4);
    const leadActor = { kind: "key", keyId: leadKeyId, personId: null, name: "lead" };
    const browserActor = { kind: "session", keyId: leadKeyId, personId: null, name: "lead" };
    expect(recorded.map((e) => [e.action, e.target, e.actor, e.address, e.before, e.after])).toEqual([
      [
        "copyVersion.create",
        { kind: "copyVersion", id: first.id, name: "v1" },
        leadActor,
        "203.0.113.7",
        null,
        { id: first.id, name: "v1", parentId: null, note: null },
      ],
      [
        "copyVersion.makeDefault",
        { kind: "copyVersion", id: first.id, name: "v1" },
        leadActor,
        "203.0.113.7",
        null,
        { id: first.id, name: "v1" },
      ],
      [
        "copyVersion.create",
        { kind: "copyVersion", id: second.id, name: "v2" },
        browserActor,
        "198.51.100.2",
        null,
        { id: second.id, name: "v2", parentId: first.id, note: "shorter" },
      ],
      [
        "copyVersion.makeDefault",
        { kind: "copyVersion", id: second.id, name: "v2" },
        browserActor,
        "198.51.100.2",
        { id: first.id, name: "v1" },
        { id: second.id, name: "v2" },
      ],
    ]);
    for (const e of recorded) {
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(e.at)).toBeLessThanOrEqual(Date.now() + 1000);
    }
    // Later entries have larger ids.
    expect(recorded.map((e) => BigInt(e.id))).toEqual(recorded.map((e) => BigInt(e.id)).sort((a, b) => (a < b ? -1 : 1)));
  });

  it("records concurrent saves made default as one chain: each entry's before is the default the one before it left", async () => {
    const { defaultCopyVersionId: before } = await db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(route.createCopy, "POST", "/api/v1/copy-versions", lead, { name: `race ${i}`, copy: {}, makeDefault: true }),
      ),
    );
    expect(saves.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const race = (await entries(lead, "?action=copyVersion.makeDefault&limit=6")).reverse();
    // The first replaced the default before the race; each other one the default committed just before it.
    expect((race[0].before as { id: string } | null)?.id ?? null).toBe(before);
    for (let i = 1; i < race.length; i++) expect(race[i].before).toEqual(race[i - 1].after);
    expect(race.map((e) => (e.after as { name: string }).name).sort()).toEqual([
      "race 0",
      "race 1",
      "race 2",
      "race 3",
      "race 4",
      "race 5",
    ]);
    const project = await db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(project.defaultCopyVersionId).toBe(race.at(-1)!.target.id);
  });

  it("records an experiment's life and a promotion's defaults; a refused change (409) records nothing", async () => {
    const copy = await ok(call(route.createCopy, "POST", "/api/v1/copy-versions", lead, { name: "arm copy", copy: {} }), 201, (b) =>
      ZCopyVersion.parse(b),
    );
    const defaults = await db.prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    const arms = [
      { name: "control", weight: 1, plannedRuns: 10 },
      { name: "short", weight: 1, plannedRuns: 10, copyVersionId: copy.id },
    ];
    const created = await ok(
      call(route.createExperiment, "POST", "/api/v1/experiments", lead, { name: "e1", key: "requests", arms }),
      201,
      (b) => ZExperiment.parse(b),
    );
    const path = `/api/v1/experiments/${created.id}`;
    const p = { id: created.id };
    const updated = await ok(
      call(route.updateExperiment, "PUT", path, lead, { name: "e1", note: "why", key: "requests", arms, version: created.version }, p),
      200,
      (b) => ZExperiment.parse(b),
    );
    // A stale version is refused and leaves no entry.
    const countBefore = (await entries(lead, "?limit=200")).length;
    expect((await call(route.startExperiment, "POST", `${path}/start`, lead, { version: created.version }, p)).status).toBe(409);
    expect((await entries(lead, "?limit=200")).length).toBe(countBefore);

    const started = await ok(call(route.startExperiment, "POST", `${path}/start`, lead, { version: updated.version }, p), 200, (b) =>
      ZExperiment.parse(b),
    );
    const stopped = await ok(call(route.stopExperiment, "POST", `${path}/stop`, lead, { version: started.version }, p), 200, (b) =>
      ZExperiment.parse(b),
    );
    await ok(
      call(route.promote, "POST", `${path}/arms/short/promote`, browser, { version: stopped.version }, { id: created.id, arm: "short" }),
      200,
      (b) => b,
    );

    const armsAsStored = arms.map((a) => ({ copyVersionId: null, policyVersionId: null, ...a }));
    const recorded = await newest(5);
    expect(recorded.map((e) => [e.action, e.target.id, e.target.name, e.actor.kind, e.before, e.after])).toEqual([
      ["experiment.create", created.id, "e1", "key", null, { name: "e1", note: null, key: "requests", arms: armsAsStored }],
      [
        "experiment.update",
        created.id,
        "e1",
        "key",
        { name: "e1", note: null, key: "requests", arms: armsAsStored },
        { name: "e1", note: "why", key: "requests", arms: armsAsStored },
      ],
      ["experiment.start", created.id, "e1", "key", { status: "draft" }, { status: "running" }],
      ["experiment.stop", created.id, "e1", "key", { status: "running" }, { status: "stopped" }],
      [
        "experiment.promote",
        created.id,
        "e1",
        "session",
        { arm: "short", defaultCopyVersionId: defaults.defaultCopyVersionId, defaultPolicyVersionId: defaults.defaultPolicyVersionId },
        { arm: "short", defaultCopyVersionId: copy.id, defaultPolicyVersionId: defaults.defaultPolicyVersionId },
      ],
    ]);
  });

  it("records a deleted comment's text, and keys created and revoked from the command line (a second revoke records nothing)", async () => {
    const comment = await ok(
      call(route.createComment, "POST", "/api/v1/runs/audited/comments", lead, { body: "looks *off*", turn: 1 }, { runId: "audited" }),
      201,
      (b) => ZComment.parse(b),
    );
    const removed = await call(route.deleteComment, "DELETE", `/api/v1/runs/audited/comments/${comment.id}`, lead, undefined, {
      runId: "audited",
      commentId: comment.id,
    });
    expect(removed.status).toBe(200);
    const key = await createKey(db, "audit-a", "ci agent");
    await revokeKey(db, key.key.id);
    await revokeKey(db, key.key.id);

    const [deletion, keyCreated, keyRevoked] = await newest(3);
    expect(deletion).toMatchObject({
      action: "comment.delete",
      target: { kind: "comment", id: comment.id, name: null },
      actor: { kind: "key", keyId: leadKeyId, personId: null, name: "lead" },
      before: { runId: "audited", turn: 1, author: comment.author.name, body: "looks *off*", createdAt: comment.createdAt },
      after: null,
    });
    const cli = { kind: "cli", keyId: null, personId: null, name: "command line" };
    expect(keyCreated).toMatchObject({
      action: "key.create",
      target: { kind: "key", id: key.key.id, name: "ci agent" },
      actor: cli,
      address: null,
      before: null,
      after: { prefix: key.secret.slice(0, 10), label: "ci agent" },
    });
    expect(JSON.stringify(keyCreated)).not.toContain(key.secret);
    expect(keyRevoked).toMatchObject({ action: "key.revoke", actor: cli, before: { revokedAt: null } });
    expect(Date.parse((keyRevoked.after as { revokedAt: string }).revokedAt)).not.toBeNaN();
  });

  it("filters by action, target, key and time, pages newest first, and shows another project nothing", async () => {
    const all = await entries(lead, "?limit=200");
    expect(all.length).toBeGreaterThan(10);
    // Newest first, pages of 3 concatenate to the whole log.
    const paged: TAuditEntry[] = [];
    for (let cursor: string | null = null; ;) {
      const response = await call(route.list, "GET", `/api/v1/audit?limit=3${cursor ? `&cursor=${cursor}` : ""}`, lead);
      const page = ZAuditList.parse(await response.json());
      paged.push(...page.entries);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(paged).toEqual(all);

    expect((await entries(lead, "?action=copyVersion.makeDefault")).map((e) => e.action)).toEqual(
      all.filter((e) => e.action === "copyVersion.makeDefault").map((e) => e.action),
    );
    const experimentId = all.find((e) => e.target.kind === "experiment")!.target.id;
    expect(await entries(lead, `?target=experiment&targetId=${experimentId}`)).toEqual(
      all.filter((e) => e.target.kind === "experiment" && e.target.id === experimentId),
    );
    expect(await entries(lead, `?actorKeyId=${leadKeyId}&limit=200`)).toEqual(all.filter((e) => e.actor.keyId === leadKeyId));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await entries(lead, `?from=${future}`)).toEqual([]);
    expect(await entries(lead, `?to=${encodeURIComponent(new Date(Date.parse(all.at(-1)!.at)).toISOString())}`)).toEqual([]);

    // Project B sees only its own key's creation.
    expect((await entries(other)).map((e) => [e.action, e.target.name])).toEqual([["key.create", "outsider"]]);
    expect(await entries(other, `?targetId=${experimentId}`)).toEqual([]);
  });

  it("exports the filtered log as JSON (the list's entries) and CSV (a line per entry)", async () => {
    const listed = await entries(lead, "?target=copyVersion&limit=200");
    const json = await call(route.export, "GET", "/api/v1/audit/export?target=copyVersion&format=json", lead);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-disposition")).toMatch(/^attachment; filename="cuescope-audit-.*\.json"$/);
    expect(JSON.parse(await json.text())).toEqual(listed);
    const csv = await (await call(route.export, "GET", "/api/v1/audit/export?target=copyVersion", lead)).text();
    const lines = csv.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe(
      "id,at,action,target kind,target id,target name,actor kind,actor key id,actor person id,actor,address,before (JSON),after (JSON)",
    );
    expect(lines).toHaveLength(listed.length + 1);
    expect(lines[1].startsWith(`${listed[0].id},${listed[0].at},${listed[0].action},copyVersion,`)).toBe(true);
  });

  it("answers bad filters with 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["?action=copyVersion.rename", "action"],
      ["?target=run", "target"],
      ["?from=yesterday", "from"],
      ["?cursor=bm90LWEtc2Vx", "cursor"],
      ["?limit=0", "limit"],
      [`?targetId=${"r".repeat(MAX_REVIEW_TARGET_ID_CHARS + 1)}`, "targetId"],
    ]) {
      const response = await call(route.list, "GET", `/api/v1/audit${query}`, lead);
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(await response.json()), query).toContain(field);
    }
    // The longest target id is a review's, `<runId>/<reviewKey>` (128 + 1 + 8,000 characters): a filter takes it.
    expect(MAX_REVIEW_TARGET_ID_CHARS).toBe(128 + 1 + 8_000);
    expect(await entries(lead, `?target=review&targetId=${encodeURIComponent(`${"r".repeat(128)}/c:${"x".repeat(7_998)}`)}`)).toEqual([]);
    expect((await call(route.list, "GET", "/api/v1/audit", {})).status).toBe(401);
  });

  it("is append-only: the database refuses to change or delete an entry, and to empty the log", async () => {
    const count = await db.prisma.auditEntry.count({ where: { projectId } });
    await expect(
      db.executeSql(`UPDATE "audit_log" SET "actor_name" = 'someone else' WHERE "project_id" = $1`, [projectId]),
    ).rejects.toThrow(/append-only/);
    await expect(db.executeSql(`DELETE FROM "audit_log" WHERE "project_id" = $1`, [projectId])).rejects.toThrow(/append-only/);
    await expect(db.executeSql(`TRUNCATE "audit_log"`)).rejects.toThrow(/append-only/);
    expect(await db.prisma.auditEntry.count({ where: { projectId } })).toBe(count);
  });
});
