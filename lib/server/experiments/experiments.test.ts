import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZCopyVersion, ZExperiment, ZExperimentAssignment, ZExperimentList, ZExperimentPromotion, ZPolicyVersion } from "@/lib/contracts";
import { experimentsApi } from "@/lib/endpoints";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { createSession, SESSION_COOKIE } from "@/lib/server/auth/sessions";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { createCopyVersionRoute, createPolicyVersionRoute } from "@/lib/server/http/version-routes";
import { testDatabases } from "@/lib/server/testing/databases";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { staleRuns } from "@/lib/server/rebuild/stale-runs";

const route = {
  list: routeOf(experimentsApi.list),
  create: routeOf(experimentsApi.create),
  get: routeOf(experimentsApi.get),
  update: routeOf(experimentsApi.update),
  start: routeOf(experimentsApi.start),
  stop: routeOf(experimentsApi.stop),
  assignment: routeOf(experimentsApi.assignment),
  promote: routeOf(experimentsApi.promote),
};

/**
 * The arm index of a run by contract §10's four steps, written here from the contract's text with
 * node's SHA-256 (not lib/core's): u = first 8 bytes big-endian, x = floor(u × W / 2^64), first arm
 * whose cumulative weight exceeds x.
 */
function contractArm(experimentId: string, runId: string, weights: number[]): number {
  const digest = createHash("sha256").update(`${experimentId}:${runId}`, "utf8").digest();
  const u = digest.readBigUInt64BE(0);
  const total = weights.reduce((a, b) => a + b, 0);
  const x = (u * BigInt(total)) >> BigInt(64);
  let cumulative = BigInt(0);
  for (const [i, w] of weights.entries()) {
    cumulative += BigInt(w);
    if (x < cumulative) return i;
  }
  throw new Error("unreachable");
}

it("computes the contract's worked assignment example (so the reference above is the contract's)", () => {
  expect(["run-0001", "run-0002", "run-0003"].map((r) => contractArm("exp_requests_copy", r, [1, 1, 1]))).toEqual([0, 1, 2]);
  expect(["run-0001", "run-0002", "run-0003"].map((r) => contractArm("exp_requests_copy", r, [50, 50]))).toEqual([0, 1, 1]);
});

describe.each(testDatabases())("experiments on $name", (kind) => {
  let db: Database;
  let key: string;
  let otherKey: string;
  let copyId: string;
  let holdoutId: string;
  let otherCopyId: string;
  let names = 0;
  const fresh = () => `exp ${++names}`;

  interface Call {
    method?: string;
    body?: unknown;
    params?: Record<string, string>;
    query?: string;
    secret?: string;
  }
  const call = (handler: (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>, c: Call = {}) =>
    handler(
      new Request(`http://cuescope.test/api/v1/experiments${c.query ?? ""}`, {
        method: c.method ?? (c.body === undefined ? "GET" : "POST"),
        headers: { authorization: `Bearer ${c.secret ?? key}`, "content-type": "application/json" },
        body: c.body === undefined ? undefined : JSON.stringify(c.body),
      }),
      { params: Promise.resolve(c.params ?? {}) },
    );
  const json = async (response: Promise<Response>) => {
    const r = await response;
    return { status: r.status, body: await r.json() };
  };

  const arms = () => [
    { name: "control", weight: 1, plannedRuns: 30 },
    { name: "shorter", weight: 1, plannedRuns: 30, copyVersionId: copyId },
    { name: "holdout", weight: 2, plannedRuns: 30, policyVersionId: holdoutId },
  ];
  const draft = async (extra: object = {}) => {
    const { status, body } = await json(call(route.create, { body: { name: fresh(), key: "requests", arms: arms(), ...extra } }));
    expect(status).toBe(201);
    return ZExperiment.parse(body);
  };
  const running = async () => {
    const d = await draft();
    const { status, body } = await json(call(route.start, { params: { id: d.id }, body: { version: d.version } }));
    expect(status).toBe(200);
    return ZExperiment.parse(body);
  };

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    key = (await createKey(db, "experiments", "Maya (product)")).secret;
    otherKey = (await createKey(db, "elsewhere")).secret;
    const save = async (r: typeof createCopyVersionRoute, body: object, secret = key) =>
      (
        await r(
          new Request("http://cuescope.test/x", {
            method: "POST",
            headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        )
      ).json();
    copyId = ZCopyVersion.parse(
      await save(createCopyVersionRoute, { name: "short", copy: { requests: { "*": "Req {used}/{limit}" } } }),
    ).id;
    holdoutId = ZPolicyVersion.parse(
      await save(createPolicyVersionRoute, {
        name: "no requests notice",
        policy: { requests: { limit: 40, stages: [0.5], remind: false } },
      }),
    ).id;
    otherCopyId = ZCopyVersion.parse(await save(createCopyVersionRoute, { name: "theirs", copy: {} }, otherKey)).id;
  }, 60_000);
  afterAll(async () => db?.close());

  it("creates a draft, lists it newest first and reads it with each arm's copy and policy resolved", async () => {
    const first = await draft({ note: "shorter notice vs holdout" });
    expect(first).toMatchObject({
      status: "draft",
      version: 1,
      key: "requests",
      createdBy: "Maya (product)",
      startedAt: null,
      stoppedAt: null,
    });
    expect(first.arms).toEqual([
      { position: 0, name: "control", weight: 1, plannedRuns: 30, copyVersionId: null, policyVersionId: null, copy: null, policy: null },
      {
        position: 1,
        name: "shorter",
        weight: 1,
        plannedRuns: 30,
        copyVersionId: copyId,
        policyVersionId: null,
        copy: { requests: { "*": "Req {used}/{limit}" } },
        policy: null,
      },
      {
        position: 2,
        name: "holdout",
        weight: 2,
        plannedRuns: 30,
        copyVersionId: null,
        policyVersionId: holdoutId,
        copy: null,
        policy: { requests: { limit: 40, deliveryReserve: 0, stages: [0.5], remind: false } },
      },
    ]);
    const second = await draft();
    const list = ZExperimentList.parse((await json(call(route.list))).body);
    expect(list.experiments.slice(0, 2).map((e) => e.id)).toEqual([second.id, first.id]);
    expect(list.experiments[1].arms[1]).toEqual({
      position: 1,
      name: "shorter",
      weight: 1,
      plannedRuns: 30,
      copyVersionId: copyId,
      policyVersionId: null,
    });
    expect(ZExperiment.parse((await json(call(route.get, { params: { id: first.id } }))).body)).toEqual(first);
  });

  it.each([
    ["one arm", { arms: [{ name: "a", weight: 1, plannedRuns: 1 }] }, 400, "arms", /at least 2 arms/],
    [
      "two arms of one name",
      {
        arms: [
          { name: "a", weight: 1, plannedRuns: 1 },
          { name: "a", weight: 1, plannedRuns: 1 },
        ],
      },
      400,
      "arms.1.name",
      /two arms are named "a"/,
    ],
    [
      "a negative weight",
      {
        arms: [
          { name: "a", weight: -1, plannedRuns: 1 },
          { name: "b", weight: 1, plannedRuns: 1 },
        ],
      },
      400,
      "arms.0.weight",
      /integer >= 0/,
    ],
    [
      "a fractional weight",
      {
        arms: [
          { name: "a", weight: 1, plannedRuns: 1 },
          { name: "b", weight: 0.5, plannedRuns: 1 },
        ],
      },
      400,
      "arms.1.weight",
      /integer >= 0/,
    ],
    [
      "weights summing to 0",
      {
        arms: [
          { name: "a", weight: 0, plannedRuns: 1 },
          { name: "b", weight: 0, plannedRuns: 1 },
        ],
      },
      400,
      "arms.0.weight",
      /sum to more than 0/,
    ],
    [
      "no planned runs",
      {
        arms: [
          { name: "a", weight: 1, plannedRuns: 0 },
          { name: "b", weight: 1, plannedRuns: 1 },
        ],
      },
      400,
      "arms.0.plannedRuns",
      /integer >= 1/,
    ],
    ["a key that is not a reminder key", { key: "budget" }, 400, "key", /one of/],
    [
      "another project's copy version",
      {
        arms: [
          { name: "a", weight: 1, plannedRuns: 1 },
          { name: "b", weight: 1, plannedRuns: 1, copyVersionId: "OTHER" },
        ],
      },
      400,
      "arms.1.copyVersionId",
      /not a saved copy version of this project/,
    ],
    [
      "an unknown policy version",
      {
        arms: [
          { name: "a", weight: 1, plannedRuns: 1, policyVersionId: "nope" },
          { name: "b", weight: 1, plannedRuns: 1 },
        ],
      },
      400,
      "arms.0.policyVersionId",
      /not a saved policy version of this project/,
    ],
  ])("refuses a draft with %s: %i naming %s", async (_what, change, status, path, message) => {
    const body = JSON.parse(JSON.stringify({ name: fresh(), key: "requests", arms: arms(), ...change }).replace("OTHER", otherCopyId));
    const answer = await json(call(route.create, { body }));
    expect(answer.status).toBe(status);
    expect(answer.body.error.path).toBe(path);
    expect(answer.body.error.message).toMatch(message);
  });

  it("answers a name the project has with 409 naming the name, as saved versions do", async () => {
    const taken = await draft();
    const answer = await json(call(route.create, { body: { name: taken.name, key: "time", arms: arms() } }));
    expect([answer.status, answer.body.error.path]).toEqual([409, "name"]);
    expect(answer.body.error.message).toMatch(/already exists/);
  });

  it("changes a draft over the version read, refuses a stale version, and of two concurrent PUTs keeps one", async () => {
    const d = await draft();
    const put = (version: number, name: string, weight = 3) =>
      json(
        call(route.update, {
          method: "PUT",
          params: { id: d.id },
          body: { version, name, key: "time", arms: [...arms().slice(0, 2), { name: "third", weight, plannedRuns: 5 }] },
        }),
      );
    const changed = await put(1, `${d.name} b`);
    expect(changed.status).toBe(200);
    expect(ZExperiment.parse(changed.body)).toMatchObject({ version: 2, key: "time", name: `${d.name} b` });
    expect(changed.body.arms.map((a: { name: string; weight: number }) => [a.name, a.weight])).toEqual([
      ["control", 1],
      ["shorter", 1],
      ["third", 3],
    ]);

    const stale = await put(1, `${d.name} c`);
    expect([stale.status, stale.body.error.path]).toEqual([409, "version"]);
    expect(stale.body.error.message).toMatch(/version 2 now, you sent 1/);

    const both = await Promise.all([put(2, `${d.name} x`, 7), put(2, `${d.name} y`, 9)]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = both.find((a) => a.status === 200)!.body;
    const stored = ZExperiment.parse((await json(call(route.get, { params: { id: d.id } }))).body);
    expect(stored.version).toBe(3);
    expect([stored.name, stored.arms[2].weight]).toEqual([winner.name, winner.arms[2].weight]);
  });

  it("rebuilds the runs that named a draft when its arms change and when it starts (their rows used the old arms)", async () => {
    const d = await draft();
    const { projectId } = await authenticate(db, `Bearer ${key}`);
    const ts = "2026-12-03T10:00:00.000Z";
    const answer = await ingestBatch(db, projectId, [
      {
        id: `${d.id}-s`,
        runId: `${d.id}-run`,
        type: "run.started",
        ts,
        body: { task: "t", policy: {}, experiment: { id: d.id, arm: "control" } },
      },
      { id: `${d.id}-e`, runId: `${d.id}-run`, type: "run.ended", ts, body: { status: "completed" } },
    ]);
    expect(answer.summary.error).toBe(0);
    await settleRebuilds(db, { projectId });
    const staleNow = async () => (await staleRuns(db, { projectId })).get(projectId) ?? [];
    expect(await staleNow()).toEqual([]);
    const row = () =>
      db.prisma.$queryRawUnsafe<{ status: string; arm: string }[]>(
        `SELECT "status", "arm" FROM "experiment_runs" WHERE "experiment_id" = $1`,
        d.id,
      );
    expect((await row())[0]?.arm).toBe("control");

    const put = await json(
      call(route.update, {
        method: "PUT",
        params: { id: d.id },
        body: { version: d.version, name: d.name, key: "requests", arms: arms().slice(0, 2) },
      }),
    );
    expect(put.status).toBe(200);
    expect(await staleNow()).toHaveLength(1);
    await settleRebuilds(db, { projectId });
    expect(await staleNow()).toEqual([]);

    const started = await json(call(route.start, { params: { id: d.id }, body: { version: put.body.version } }));
    expect(started.status).toBe(200);
    expect(await staleNow()).toHaveLength(1);
  });

  it("freezes the arms once started, answers assignments only while running, and keeps the experiment after stop", async () => {
    const d = await draft();
    const assign = (runId: string, id = d.id) =>
      json(call(route.assignment, { params: { id }, query: `?runId=${encodeURIComponent(runId)}` }));
    const asDraft = await assign("run-1");
    expect([asDraft.status, asDraft.body.error.message]).toEqual([
      409,
      expect.stringMatching(/is draft: assignments are answered only while it is running/),
    ]);

    const started = await json(call(route.start, { params: { id: d.id }, body: { version: 1 } }));
    expect(started.status).toBe(200);
    expect(ZExperiment.parse(started.body)).toMatchObject({ status: "running", version: 2, stoppedAt: null });
    expect(started.body.startedAt).not.toBeNull();
    const again = await json(call(route.start, { params: { id: d.id }, body: { version: 2 } }));
    expect([again.status, again.body.error.message]).toEqual([409, expect.stringMatching(/is running: only a draft experiment can start/)]);

    const frozen = await json(
      call(route.update, { method: "PUT", params: { id: d.id }, body: { version: 2, name: d.name, key: "requests", arms: arms() } }),
    );
    expect([frozen.status, frozen.body.error.message]).toEqual([
      409,
      expect.stringMatching(/arms are frozen once started; create a new experiment/),
    ]);

    const weights = [1, 1, 2];
    for (let i = 0; i < 60; i++) {
      const runId = `run-${kind.name}-${i}`;
      const answer = await assign(runId);
      expect(answer.status).toBe(200);
      const a = ZExperimentAssignment.parse(answer.body);
      const expected = contractArm(d.id, runId, weights);
      expect([a.experimentId, a.runId, a.position, a.arm]).toEqual([d.id, runId, expected, ["control", "shorter", "holdout"][expected]]);
      expect([a.copyVersionId, a.policyVersionId]).toEqual([[null, copyId, null][expected], [null, null, holdoutId][expected]]);
      expect(a.copy).toEqual(expected === 1 ? { requests: { "*": "Req {used}/{limit}" } } : null);
      expect(a.policy?.requests?.remind ?? null).toBe(expected === 2 ? false : null);
    }

    const missing = await json(call(route.assignment, { params: { id: d.id } }));
    expect([missing.status, missing.body.error.path]).toEqual([400, "runId"]);
    const tooLong = await assign("r".repeat(129));
    expect([tooLong.status, tooLong.body.error.path]).toEqual([400, "runId"]);
    expect((await assign("run-1", "no-such-experiment")).status).toBe(404);

    const stopped = await json(call(route.stop, { params: { id: d.id }, body: { version: 2 } }));
    expect(ZExperiment.parse(stopped.body)).toMatchObject({ status: "stopped", version: 3 });
    expect(stopped.body.arms).toEqual(started.body.arms);
    const afterStop = await assign("run-1");
    expect([afterStop.status, afterStop.body.error.message]).toEqual([409, expect.stringMatching(/is stopped/)]);
    const stopTwice = await json(call(route.stop, { params: { id: d.id }, body: { version: 3 } }));
    expect([stopTwice.status, stopTwice.body.error.path]).toEqual([409, "status"]);
  });

  it("refuses a draft's stop and a stale start", async () => {
    const d = await draft();
    expect((await json(call(route.stop, { params: { id: d.id }, body: { version: 1 } }))).body.error.message).toMatch(
      /is draft: only a running experiment can stop/,
    );
    const stale = await json(call(route.start, { params: { id: d.id }, body: { version: 7 } }));
    expect([stale.status, stale.body.error.path]).toEqual([409, "version"]);
  });

  it("promotes an arm's versions to the project's defaults, once per version read; a control arm has none to promote", async () => {
    const e = await running();
    const promote = (arm: string, version: number, id = e.id, secret = key) =>
      json(call(route.promote, { params: { id, arm }, body: { version }, secret }));

    const control = await promote("control", e.version);
    expect([control.status, control.body.error.path]).toEqual([400, "arm"]);
    expect((await promote("nope", e.version)).status).toBe(404);

    const both = await Promise.all([promote("shorter", e.version), promote("holdout", e.version)]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    const won = ZExperimentPromotion.parse(both.find((a) => a.status === 200)!.body);
    expect(won.experiment.version).toBe(e.version + 1);
    const lost = both.find((a) => a.status === 409)!.body;
    expect(lost.error.path).toBe("version");

    const holdout = await promote("holdout", e.version + 1);
    expect(holdout.status).toBe(200);
    const after = ZExperimentPromotion.parse(holdout.body);
    // The holdout arm has only a policy: the copy default is whatever was promoted before (the shorter arm's, if it won).
    expect(after.defaultPolicyVersionId).toBe(holdoutId);
    expect(after.defaultCopyVersionId).toBe(both[0].status === 200 ? copyId : null);
    const project = await db.prisma.project.findUniqueOrThrow({ where: { name: "experiments" } });
    expect([project.defaultCopyVersionId, project.defaultPolicyVersionId]).toEqual([after.defaultCopyVersionId, holdoutId]);
  });

  it("never shows another project's experiments: listed nowhere, 404 to every route", async () => {
    const mine = await running();
    const theirs = ZExperimentList.parse((await json(call(route.list, { secret: otherKey }))).body);
    expect(theirs.experiments).toEqual([]);
    const as = { secret: otherKey, params: { id: mine.id } };
    const answers = await Promise.all([
      json(call(route.get, as)),
      json(
        call(route.update, {
          ...as,
          method: "PUT",
          body: {
            version: mine.version,
            name: "x",
            key: "requests",
            arms: arms()
              .slice(0, 2)
              .map(({ name }) => ({ name, weight: 1, plannedRuns: 1 })),
          },
        }),
      ),
      json(call(route.start, { ...as, body: { version: mine.version } })),
      json(call(route.stop, { ...as, body: { version: mine.version } })),
      json(call(route.assignment, { ...as, query: "?runId=r1" })),
      json(call(route.promote, { secret: otherKey, params: { id: mine.id, arm: "shorter" }, body: { version: mine.version } })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(ZExperiment.parse((await json(call(route.get, { params: { id: mine.id } }))).body).version).toBe(mine.version);
  });

  it("takes a browser session's writes from the app's own origin and refuses another origin's with 403", async () => {
    const d = await draft();
    const { token } = await createSession(db, await authenticate(db, `Bearer ${key}`));
    const own = {
      cookie: `${SESSION_COOKIE}=${token}`,
      host: "127.0.0.1:3000",
      origin: "http://127.0.0.1:3000",
      "sec-fetch-site": "same-origin",
    };
    const cross = { ...own, origin: "http://evil.test", "sec-fetch-site": "cross-site" };
    const send = (handler: typeof route.update, method: string, headers: Record<string, string>, body: unknown) =>
      handler(
        new Request(`http://127.0.0.1:3000/api/v1/experiments/${d.id}`, {
          method,
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({ id: d.id }) },
      );
    const put = { version: 1, name: `${d.name} (session)`, key: "requests", arms: arms() };
    expect((await send(route.update, "PUT", cross, put)).status).toBe(403);
    expect((await send(route.start, "POST", cross, { version: 1 })).status).toBe(403);
    expect((await send(route.update, "PUT", own, put)).status).toBe(200);
    expect((await send(route.start, "POST", own, { version: 2 })).status).toBe(200);
  });
});
