import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZExperiment, ZExperimentAssignment } from "@/lib/contracts";
import { testDatabases } from "@/lib/server/testing/databases";
import { createCuescope, CuescopeError } from "../src/index";
import { closeHostedIngest, openHostedIngest, type HostedIngest } from "./ingest-host";

// Issue 24: `cuescope.experiment(id)` reads an experiment through the real API, and `startRun`
// assigns each run the arm the server's assignment endpoint answers, renders with that arm's copy
// and policy, and records `experiment: { id, arm }` in run.started, which ingest keeps on the run.

const POLICY = {
  requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 9_000, stages: [0.7, 0.85, 0.95] },
};
const OWN_COPY = { requests: { "*": "Own: {used}/{limit} requests" } };
const ARM_COPY = { requests: { "*": "Arm: {used} of {limit}" } };
const HOLDOUT_POLICY = { requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9], remind: false } };

describe.each(testDatabases())("the SDK in an experiment on $name", (kind) => {
  let hosted: HostedIngest;
  let experimentId: string;
  let draftId: string;

  /** The real API over HTTP, with the project's key. */
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${hosted.host.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${hosted.key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    hosted = await openHostedIngest(kind, "sdk-experiments");
    const copy = await api("POST", "/api/v1/copy-versions", { name: "arm copy", copy: ARM_COPY });
    const holdout = await api("POST", "/api/v1/policy-versions", { name: "holdout", policy: HOLDOUT_POLICY });
    expect([copy.status, holdout.status]).toEqual([201, 201]);
    const arms = [
      { name: "control", weight: 2, plannedRuns: 50 },
      { name: "shorter", weight: 1, plannedRuns: 50, copyVersionId: copy.body.id },
      { name: "holdout", weight: 1, plannedRuns: 50, policyVersionId: holdout.body.id },
    ];
    const created = await api("POST", "/api/v1/experiments", { name: "requests copy", key: "requests", arms });
    expect(created.status).toBe(201);
    experimentId = created.body.id;
    expect((await api("POST", `/api/v1/experiments/${experimentId}/start`, { version: 1 })).status).toBe(200);
    draftId = (await api("POST", "/api/v1/experiments", { name: "not started", key: "requests", arms })).body.id;
  }, 60_000);
  afterAll(() => closeHostedIngest(hosted ?? {}));

  it("assigns every run the arm the server's assignment endpoint answers, and renders with the arm's copy and policy", async () => {
    const cuescope = createCuescope({ url: hosted.host.url, apiKey: hosted.key, mode: "development", flushOnExit: false });
    const experiment = await cuescope.experiment(experimentId);
    expect(experiment).toEqual(ZExperiment.parse((await api("GET", `/api/v1/experiments/${experimentId}`)).body));

    const seen = new Map<string, number>();
    for (let i = 0; i < 120; i++) {
      const runId = `sdk-${kind.name}-${i}`;
      const run = cuescope.startRun({ runId, task: `task ${i}`, agent: "etf-agent", policy: POLICY, copy: OWN_COPY, experiment });
      const server = await api("GET", `/api/v1/experiments/${experimentId}/assignment?runId=${encodeURIComponent(runId)}`);
      expect(server.status).toBe(200);
      const assignment = ZExperimentAssignment.parse(server.body);
      const body = run.started!.body;
      expect(body.experiment).toEqual({ id: experimentId, arm: assignment.arm });
      expect(run.arm?.position).toBe(assignment.position);
      // The arm's copy and policy replace the run's own where the arm has them.
      expect(body.copy).toEqual(assignment.copy ?? OWN_COPY);
      expect(body.policy).toEqual(assignment.policy ?? POLICY);
      if (assignment.arm === "shorter") expect(body.copy).toEqual(ARM_COPY);
      if (assignment.arm === "holdout") expect(body.policy.requests?.remind).toBe(false);
      seen.set(assignment.arm, (seen.get(assignment.arm) ?? 0) + 1);
    }
    // Every arm got runs (weights 2:1:1 over 120 runs).
    expect([...seen.keys()].sort()).toEqual(["control", "holdout", "shorter"]);
    await cuescope.shutdown();
    expect(cuescope.stats()).toMatchObject({ acknowledged: 120, rejected: 0, invalid: 0 });

    // Ingest kept each run's experiment and arm: the runs list filters by them.
    for (const arm of ["control", "shorter", "holdout"]) {
      const listed = await api("GET", `/api/v1/runs?experiment=${experimentId}&arm=${arm}&limit=200`);
      expect(listed.status).toBe(200);
      expect(listed.body.runs).toHaveLength(seen.get(arm) ?? 0);
      for (const r of listed.body.runs) expect([r.experimentId, r.experimentArm]).toEqual([experimentId, arm]);
    }
  });

  it("refuses to start a run in an experiment that is not running, and rejects an unknown experiment with its status", async () => {
    const cuescope = createCuescope({ url: hosted.host.url, apiKey: hosted.key, mode: "development", flushOnExit: false });
    const draft = await cuescope.experiment(draftId);
    expect(draft.status).toBe("draft");
    expect(() => cuescope.startRun({ task: "t", policy: POLICY, experiment: draft })).toThrow(
      /is draft: runs are assigned only while it is running/,
    );
    const unknown = await cuescope.experiment("no-such-experiment").catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(CuescopeError);
    expect(unknown).toMatchObject({ kind: "rejected", status: 404 });
    const plain = cuescope.startRun({ task: "no experiment", policy: POLICY });
    expect([plain.arm, plain.started!.body.experiment]).toEqual([undefined, undefined]);
    await cuescope.shutdown();

    // Production: reported, and the run starts without the experiment, with its own copy and policy.
    const reported: CuescopeError[] = [];
    const production = createCuescope({
      url: hosted.host.url,
      apiKey: hosted.key,
      mode: "production",
      flushOnExit: false,
      onError: (error) => reported.push(error),
    });
    const run = production.startRun({ task: "draft in production", policy: POLICY, copy: OWN_COPY, experiment: draft });
    expect(reported.map((e) => [e.kind, e.message])).toEqual([["invalid", expect.stringMatching(/is draft/)]]);
    expect([run.arm, run.started!.body.experiment, run.started!.body.copy]).toEqual([undefined, undefined, OWN_COPY]);
    // Nothing listens on port 9: every attempt fails (2 retries, no waiting), then `failed`.
    const waits: number[] = [];
    const unreachable = createCuescope({
      url: "http://127.0.0.1:9",
      apiKey: hosted.key,
      mode: "production",
      flushOnExit: false,
      retries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    const failed = await unreachable.experiment(experimentId).catch((error: unknown) => error);
    expect(failed).toMatchObject({ kind: "failed", message: expect.stringMatching(/gave up after 3 attempts/) });
    expect(waits).toHaveLength(2);
    await production.shutdown();
    await unreachable.shutdown();
  });

  it("retries the read through 503s and answers the experiment; a 404 is not retried", async () => {
    const waits: number[] = [];
    const cuescope = createCuescope({
      url: hosted.host.url,
      apiKey: hosted.key,
      mode: "development",
      flushOnExit: false,
      sleep: async (ms) => void waits.push(ms),
    });
    const before = hosted.host.requests;
    hosted.host.faults.failFirst = 3; // the server answers 503 (Retry-After: 0) three times, then the route
    const experiment = await cuescope.experiment(experimentId);
    expect(experiment.id).toBe(experimentId);
    expect(hosted.host.requests - before).toBe(4);
    expect(waits).toHaveLength(3);

    const beforeUnknown = hosted.host.requests;
    await expect(cuescope.experiment("no-such-experiment")).rejects.toMatchObject({ kind: "rejected", status: 404 });
    expect(hosted.host.requests - beforeUnknown).toBe(1);
    expect(waits).toHaveLength(3);

    // Fewer retries than failures: `failed`, with the last status.
    const few = createCuescope({ url: hosted.host.url, apiKey: hosted.key, flushOnExit: false, retries: 1, sleep: async () => {} });
    hosted.host.faults.failFirst = 2;
    await expect(few.experiment(experimentId)).rejects.toMatchObject({ kind: "failed", status: 503 });
    await cuescope.shutdown();
    await few.shutdown();
  });
});
