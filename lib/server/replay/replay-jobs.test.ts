import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGENT_COMPARISON_CODES,
  REMINDER_KEYS,
  ZEvent,
  ZReplayJob,
  ZReplayList,
  ZReplayMatching,
  ZReplayTurn,
  type TCopy,
  type TReplayJob,
  type TRunDecisions,
} from "@/lib/contracts";
import { followUp, rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { changedTurns } from "@/lib/replay/changed-turns";
import { resolvedCopyJson } from "@/lib/replay/follow-up-groups";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { startReplayRoute } from "@/lib/server/http/replay-routes";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { findRun } from "@/lib/server/runs/find-run";
import { getDecisions } from "@/lib/server/runs/run-reads";
import { startBackground, useBackground, type Background } from "@/lib/server/background/background";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { turnEvents } from "@/lib/server/testing/events";
import { inlineReplays } from "@/lib/server/testing/jobs";
import { createCopyVersion, createPolicyVersion, getCopyVersion, getPolicyVersion } from "@/lib/server/versions/versions";
import { keyStatsOf } from "@/lib/replay/key-stats";
import { loadRunEvents } from "@/lib/server/runs/run-events";
import { cancelReplayJob, getReplayJob, OLD_RESULT_FORMAT, startReplay } from "./replay-jobs";
import { copyFingerprint, replayRuns } from "./replay-runs";
import { getReplayTurn } from "./replay-turn";
import { routeOf } from "@/lib/server/http/api";
import { replayApi } from "@/lib/endpoints";
import { taskThreads } from "@/lib/server/background/tasks";

const replayJobRoute = routeOf(replayApi.job);
const replayListRoute = routeOf(replayApi.list);
const replayMatchingRoute = routeOf(replayApi.matching);
const replayTurnRoute = routeOf(replayApi.turn);

const RUNS = ["replay-a", "replay-b", "replay-c"];
const BASE = "http://cuescope.test/api/v1";

const get = (secret: string, path: string) => new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${secret}` } });
const post = (secret: string, path: string, body: unknown) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const turnParams = (id: string, runId: string, turn: number | string) => ({ params: Promise.resolve({ id, runId, turn: String(turn) }) });

describe.each(testDatabases())("what-if replay jobs on $name", (kind) => {
  let db: Database;
  let caller: Caller;
  let secret: string;
  let ownCopyId: string;
  let longCopyId: string;
  let tightPolicyId: string;

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    secret = (await createKey(db, "tuning", "Product")).secret;
    caller = await authenticate(db, `Bearer ${secret}`);
    const policy = {
      context: { capacityBytes: 60_000, stages: [0.5, 0.7, 0.85, 0.95] },
      edits: { perBlockLimit: 4, stages: [0.5, 1] },
      review: { everyTurns: 10 },
    };
    for (const [i, runId] of RUNS.entries()) {
      const events = generateEtfRun({ runId, seed: 40 + i, turns: 150, policy }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
      await ingestBatch(db, caller.projectId, events);
    }
    await settleRebuilds(db);
    ownCopyId = (await createCopyVersion(db, caller, { name: "own (default copy)", copy: {} })).id;
    longCopyId = (
      await createCopyVersion(db, caller, {
        name: "long context",
        copy: {
          context: {
            "*": `Context: ${"this request is nearly full — choose every piece of material with great care; ".repeat(6)}{requiredBytes} of {capacityBytes} bytes.`,
          },
        },
      })
    ).id;
    tightPolicyId = (
      await createPolicyVersion(db, caller, {
        name: "tight",
        policy: { ...policy, context: { capacityBytes: 40_000, stages: [0.5, 0.7, 0.85, 0.95] } },
      })
    ).id;
  }, 120_000);
  afterAll(async () => db?.close());

  it("replaying with the runs' own copy changes nothing and matches the stored rebuild exactly", async () => {
    const { job, done } = await startReplay(db, caller, { copyVersionId: ownCopyId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    expect(job.status).toBe("running");
    await done;
    const finished = await getReplayJob(db, caller.projectId, job.id);
    expect(finished.status).toBe("done");
    expect(finished.progress).toMatchObject({ totalRuns: 3, doneRuns: 3, totalTurns: 450, doneTurns: 450 });
    expect(finished.result!.changedRuns).toEqual([]);
    for (const { baseline, whatIf } of finished.result!.keys) expect(whatIf).toEqual(baseline);
    // The baseline is rebuilt by the replay; the stored rebuilds (the rebuild jobs' own path) say the same.
    const stored = await Promise.all(RUNS.map(async (runId) => (await getDecisions(db, caller.projectId, runId)) as TRunDecisions));
    expect(stored[0].turns.length).toBeGreaterThan(100);
    expect(finished.result!.keys.map((k) => k.baseline)).toEqual(keyStatsOf(stored));
  });

  it("leaves out a run that cannot be rebuilt (a stored event that no longer reads), as its stored rebuild does", async () => {
    const other = await authenticate(db, `Bearer ${(await createKey(db, "unreadable")).secret}`);
    const events = (runId: string) => generateEtfRun({ runId, seed: 7, turns: 40 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    await ingestBatch(db, other.projectId, [...events("whole"), ...events("broken")]);
    // A row stored under an older contract, say: a meter reading the event contract no longer takes.
    const broken = await findRun(db, other.projectId, "broken");
    await db.executeSql(
      `UPDATE "events" SET "body" = '{"used": -1}'::jsonb
        WHERE "project_id" = $1 AND "run_pk" = $2 AND "seq" = (SELECT min("seq") FROM "events" WHERE "project_id" = $1 AND "run_pk" = $2 AND "type" = 'meter.requests')`,
      [other.projectId, broken.id],
    );
    await settleRebuilds(db);
    const stored = await db.prisma.runDecisionsCache.findUniqueOrThrow({
      where: { projectId_runPk: { projectId: other.projectId, runPk: broken.id } },
      select: { error: true },
    });
    expect(stored.error).toMatch(/events/);
    const copyVersionId = (
      await createCopyVersion(db, other, { name: "long", copy: (await getCopyVersion(db, caller.projectId, longCopyId)).copy })
    ).id;
    const { job, done } = await startReplay(db, other, { copyVersionId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    await done;
    const finished = await getReplayJob(db, other.projectId, job.id);
    expect(finished.status).toBe("done");
    const whole = await loadRunEvents(db, await findRun(db, other.projectId, "whole"));
    const copy = (await getCopyVersion(db, other.projectId, copyVersionId)).copy;
    expect(finished.result!.runs).toBe(2);
    expect(finished.result!.keys.map((k) => k.baseline)).toEqual(keyStatsOf([rebuild(whole)]));
    expect(finished.result!.keys.map((k) => k.whatIf)).toEqual(keyStatsOf([rebuild(whole, { copy })]));
    expect(finished.result!.changedRuns.map((r) => r.runId)).not.toContain("broken");
  });

  it("longer copy under a tight policy drops more, lists the changed turns, and a second look is instant", async () => {
    const request = { copyVersionId: longCopyId, policyVersionId: tightPolicyId, filters: {}, maxRuns: 10 };
    const { job, done } = await startReplay(db, caller, request, inlineReplays(db));
    await done;
    const result = (await getReplayJob(db, caller.projectId, job.id)).result!;
    const context = result.keys.find((k) => k.key === "context")!;
    expect(context.whatIf.dropped).toBeGreaterThan(context.baseline.dropped);
    expect(result.changedRuns.length).toBeGreaterThan(0);
    expect(result.changedRuns[0].turns[0].changes.length).toBeGreaterThan(0);
    // The recorded runs have no copy of their own: the default, which the saved "own (default copy)" is too.
    expect(result.followUp.map((g) => g.copy)).toEqual([
      {
        fingerprint: copyFingerprint(resolvedCopyJson(undefined)),
        label: "Default copy (saved as “own (default copy)”)",
        copyVersionId: ownCopyId,
        runs: 3,
      },
    ]);
    expect(result.followUp[0].keys.map((f) => f.key)).toEqual(["requests", "time", "context", "edits", "review"]);
    const review = result.followUp[0].keys.find((f) => f.key === "review")!;
    if (review.delivered > 0) expect(review.low!).toBeLessThanOrEqual(review.rate!);

    const again = await startReplay(db, caller, request, inlineReplays(db));
    expect(again.job).toMatchObject({ id: job.id, reused: true, status: "done" });
  });

  it("reports per key exactly what the core says for the same runs and overrides", async () => {
    const long = await getCopyVersion(db, caller.projectId, longCopyId);
    const { job, done } = await startReplay(db, caller, { copyVersionId: longCopyId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    await done;
    const result = (await getReplayJob(db, caller.projectId, job.id)).result!;
    const runs = await db.prisma.run.findMany({ where: { projectId: caller.projectId } });
    const expected = keyStatsOf(await Promise.all(runs.map(async (run) => rebuild(await loadRunEvents(db, run), { copy: long.copy }))));
    expect(result.keys.map((k) => k.whatIf)).toEqual(expected);
  });

  it("replays on a job thread, the runs' rows handed over as the database's bytes, exactly as inline and as the core says", async () => {
    const long = await getCopyVersion(db, caller.projectId, longCopyId);
    const tight = await getPolicyVersion(db, caller.projectId, tightPolicyId);
    const runs = await db.prisma.run.findMany({ where: { projectId: caller.projectId }, orderBy: { runId: "asc" } });
    const overrides = { copy: long.copy, policy: tight.policy };
    const threads = taskThreads(1);
    try {
      const onThread = await replayRuns(db, threads, caller.projectId, runs, overrides, async () => true);
      const inline = await replayRuns(db, taskThreads(0), caller.projectId, runs, overrides, async () => true);
      expect(onThread).toEqual(inline);
      const expected = keyStatsOf(await Promise.all(runs.map(async (run) => rebuild(await loadRunEvents(db, run), overrides))));
      expect(onThread!.keys.map((k) => k.whatIf)).toEqual(expected);
      expect(onThread!.changedRuns.length).toBeGreaterThan(0);
    } finally {
      await threads.close();
    }
  }, 60_000);

  it("can be cancelled, and refuses unknown versions and empty selections by name", async () => {
    const { job, done } = await startReplay(
      db,
      caller,
      { policyVersionId: tightPolicyId, filters: { status: "completed" }, maxRuns: 10 },
      inlineReplays(db),
    );
    await cancelReplayJob(db, caller.projectId, job.id);
    await done;
    const stopped = await getReplayJob(db, caller.projectId, job.id);
    expect(["cancelled", "done"]).toContain(stopped.status);
    // The job keeps the filters its runs were chosen by (the page preselects them to run it again).
    expect(stopped.filters).toEqual({ status: "completed" });
    await expect(startReplay(db, caller, { copyVersionId: "nope", filters: {}, maxRuns: 10 }, inlineReplays(db))).rejects.toMatchObject({
      kind: "not_found",
    });
    await expect(
      startReplay(db, caller, { copyVersionId: longCopyId, filters: { agent: "nobody" }, maxRuns: 10 }, inlineReplays(db)),
    ).rejects.toMatchObject({
      kind: "invalid",
      path: "filters",
    });
  });

  it("shows one turn of a replayed run: its own decision next to the what-if, what changed, and the changed turns either side", async () => {
    const { job, done } = await startReplay(
      db,
      caller,
      {
        copyVersionId: longCopyId,
        policyVersionId: tightPolicyId,
        filters: {},
        maxRuns: 10,
      },
      inlineReplays(db),
    );
    await done;
    const result = (await getReplayJob(db, caller.projectId, job.id)).result!;
    const { runId } = result.changedRuns[0];

    // What the core says for the same run and versions, independently of the endpoint.
    const run = await findRun(db, caller.projectId, runId);
    const events = await loadRunEvents(db, run);
    const own = (await getDecisions(db, caller.projectId, runId)) as TRunDecisions;
    const [long, tight] = [
      await getCopyVersion(db, caller.projectId, longCopyId),
      await getPolicyVersion(db, caller.projectId, tightPolicyId),
    ];
    const whatIf = rebuild(events, { copy: long.copy, policy: tight.policy });
    const changed = changedTurns(own, whatIf);
    const at = changed.findIndex((c) =>
      c.changes.some((change) => /^context: (delivered|uncertain|failed|pending) → dropped$/.test(change)),
    );
    expect(at).toBeGreaterThan(0);
    const { turn, changes } = changed[at];

    const response = await replayTurnRoute(get(secret, `/replay/${job.id}/runs/${runId}/turns/${turn}`), turnParams(job.id, runId, turn));
    expect(response.status).toBe(200);
    const side = ZReplayTurn.parse(await response.json());
    expect(side).toMatchObject({ jobId: job.id, runId, turn, copyVersionId: longCopyId, policyVersionId: tightPolicyId, changes });
    expect(side.previousChanged).toBe(changed[at - 1].turn);
    expect(side.nextChanged).toBe(changed[at + 1]?.turn ?? null);
    expect(side.baseline).toEqual(own.turns.find((t) => t.turn === turn));
    expect(side.whatIf).toEqual(whatIf.turns.find((t) => t.turn === turn));
    expect(side.baseline!.reminders.find((r) => r.key === "context")!.status).not.toBe("dropped");
    expect(side.whatIf!.reminders.find((r) => r.key === "context")).toMatchObject({ status: "dropped", dropReason: "capacity" });
    expect(side.baselineFindings).toEqual(own.findings.filter((f) => f.turn === turn));
    // The what-if side leaves out comparisons with the agent's record (no agent ran with it); the rest are its own.
    expect(side.whatIfFindings).toEqual(
      whatIf.findings.filter((f) => f.turn === turn && !(AGENT_COMPARISON_CODES as readonly string[]).includes(f.code)),
    );
    expect(side.whatIfFindings.map((f) => f.code)).not.toContain("MISSING_REMINDER");

    // An unchanged turn: the same reminders both sides (the tighter policy still moves the meters), no changes, the changed turns around it.
    const changedSet = new Set(changed.map((c) => c.turn));
    const still = own.turns.find((t) => t.turn > changed[0].turn && !changedSet.has(t.turn))!;
    const same = await getReplayTurn(db, taskThreads(0), caller.projectId, job.id, runId, still.turn);
    expect(same.changes).toEqual([]);
    expect(same.whatIf!.reminders).toEqual(same.baseline!.reminders);
    expect(same.previousChanged).toBe(changed.filter((c) => c.turn < still.turn).at(-1)!.turn);
    expect(same.nextChanged).toBe(changed.find((c) => c.turn > still.turn)?.turn ?? null);
    const first = await getReplayTurn(db, taskThreads(0), caller.projectId, job.id, runId, changed[0].turn);
    expect(first.previousChanged).toBeNull();
  });

  it("answers 404 naming what is missing: the replay, the run, the turn; 400 for a turn that is not a number", async () => {
    const { job, done } = await startReplay(db, caller, { copyVersionId: longCopyId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    await done;
    const cases: [string, string, string, number, string | undefined][] = [
      ["nope", "replay-a", "3", 404, "id"],
      [job.id, "nobody", "3", 404, "runId"],
      [job.id, "replay-a", "100000", 404, "turn"],
      [job.id, "replay-a", "x", 400, undefined],
    ];
    for (const [id, runId, turn, status, path] of cases) {
      const response = await replayTurnRoute(get(secret, `/replay/${id}/runs/${runId}/turns/${turn}`), turnParams(id, runId, turn));
      expect(response.status, `${id} ${runId} ${turn}`).toBe(status);
      if (path) expect((await response.json()).error.path).toBe(path);
    }
    const stranger = (await createKey(db, "elsewhere")).secret;
    expect((await replayTurnRoute(get(stranger, "/x"), turnParams(job.id, "replay-a", 3))).status).toBe(404);
    await expect(getReplayTurn(db, taskThreads(0), caller.projectId, job.id, "replay-a", 100000)).rejects.toMatchObject({
      kind: "not_found",
      path: "turn",
    });
  });

  it("groups follow-up by the copy the runs were rendered with, named after saved versions", async () => {
    const other = (await createKey(db, "copywriting", "Copy")).secret;
    const writer = await authenticate(db, `Bearer ${other}`);
    const short: TCopy = { context: { "*": "Ctx {percent}% of {capacityBytes} B" } };
    const own: TCopy = { review: { "*": "Checkpoint {checkpoint} at turn {turn}: check the objectives." } };
    const policy = {
      requests: { limit: 120, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
      context: { capacityBytes: 60_000, stages: [0.5, 0.7, 0.85, 0.95] },
      review: { everyTurns: 10 },
    };
    const runs: [string, TCopy | undefined][] = [
      ["fu-plain", undefined],
      ["fu-short-1", short],
      ["fu-short-2", short],
      ["fu-own", own],
    ];
    const recorded = new Map<string, ReturnType<typeof generateEtfRun>["events"]>();
    for (const [i, [runId, copy]] of runs.entries()) {
      const events = generateEtfRun({ runId, seed: 70 + i, turns: 60, policy, copy }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
      recorded.set(runId, events);
      await ingestBatch(db, writer.projectId, events);
    }
    await settleRebuilds(db);
    const saved = await createCopyVersion(db, writer, { name: "short context", copy: short });
    const tryOut = await createPolicyVersion(db, writer, { name: "try", policy });

    // Through the route and the real queue, worked as the server works it.
    const background = await startBackground(db, { workers: 1, threads: taskThreads(0) });
    useBackground(background);
    let job: TReplayJob;
    try {
      const started = await startReplayRoute(post(other, "/replay", { policyVersionId: tryOut.id }));
      expect(started.status).toBe(202);
      const { id } = ZReplayJob.parse(await started.json());
      job = ZReplayJob.parse(await (await replayJobRoute(get(other, `/replay/${id}`), { params: Promise.resolve({ id }) })).json());
      for (let i = 0; job.status === "running" && i < 600; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = ZReplayJob.parse(await (await replayJobRoute(get(other, `/replay/${id}`), { params: Promise.resolve({ id }) })).json());
      }
    } finally {
      useBackground(undefined);
      await background.close();
    }
    expect(job.status).toBe("done");
    const groups = job.result!.followUp;
    const ownPrint = copyFingerprint(resolvedCopyJson(own));
    expect(ownPrint).toMatch(/^[0-9a-f]{10}$/);
    expect(groups.map((g) => g.copy)).toEqual([
      { fingerprint: copyFingerprint(resolvedCopyJson(short)), label: "short context", copyVersionId: saved.id, runs: 2 },
      { fingerprint: copyFingerprint(resolvedCopyJson(undefined)), label: "Default copy", copyVersionId: null, runs: 1 },
      { fingerprint: ownPrint, label: `Run's own copy · ${ownPrint}`, copyVersionId: null, runs: 1 },
    ]);
    // Each group's counts are the core's §8 follow-up of its runs, summed.
    const core = (runId: string) => {
      const events = recorded.get(runId)!.map((e) => ZEvent.parse(e));
      return followUp(rebuild(events), events).byKey;
    };
    const sum = (...runIds: string[]) =>
      REMINDER_KEYS.map((key) => {
        const stats = runIds.map((r) => core(r).find((s) => s.key === key)!);
        return { key, delivered: stats.reduce((n, s) => n + s.delivered, 0), followed: stats.reduce((n, s) => n + s.followed, 0) };
      });
    const counts = (i: number) => groups[i].keys.map(({ key, delivered, followed }) => ({ key, delivered, followed }));
    expect(counts(0)).toEqual(sum("fu-short-1", "fu-short-2"));
    expect(counts(1)).toEqual(sum("fu-plain"));
    expect(counts(2)).toEqual(sum("fu-own"));
    expect(groups.flatMap((g) => g.keys).some((k) => k.delivered > 0)).toBe(true);
  });

  it("answers 503, not 500, when the job queue fails, and the job it could not queue reads as failed", async () => {
    // A queue that fails the way a library can (not a database error the HTTP layer classifies).
    const broken = {
      db,
      enqueueReplay: () => Promise.reject(new Error("queue cuescope-replay not found")),
    } as unknown as Background;
    useBackground(broken);
    try {
      const response = await startReplayRoute(post(secret, "/replay", { copyVersionId: longCopyId, maxRuns: 1 }));
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect((await response.json()).error.message).toMatch(/job queue cannot be reached/);
    } finally {
      useBackground(undefined);
    }
    const [latest] = await db.prisma.replayJob.findMany({
      where: { projectId: caller.projectId },
      orderBy: { createdAt: "desc" },
      take: 1,
    });
    expect([latest.status, latest.error]).toEqual(["failed", "the replay could not be queued; start it again"]);
  });

  it("makes one job of 20 identical replay requests sent at once, and answers each with its id", async () => {
    const copyVersionId = (await createCopyVersion(db, caller, { name: "asked twenty times", copy: {} })).id;
    // A queue that only takes the jobs (no worker runs them): they stay queued while the requests race.
    const queued: string[] = [];
    useBackground({ db, enqueueReplay: async (_p: string, id: string) => void queued.push(id) } as unknown as Background);
    let answers: Response[];
    try {
      answers = await Promise.all(
        Array.from({ length: 20 }, () => startReplayRoute(post(secret, "/replay", { copyVersionId, maxRuns: 10 }))),
      );
    } finally {
      useBackground(undefined);
    }
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    const ids = new Set(await Promise.all(answers.map(async (a) => ZReplayJob.parse(await a.json()).id)));
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(queued).toEqual([id]);
    expect(await db.prisma.replayJob.count({ where: { projectId: caller.projectId, copyVersionId } })).toBe(1);

    // Another request (another version) is another job; once the pending one ends, the same request makes a new one.
    const other = await startReplay(
      db,
      caller,
      { copyVersionId: ownCopyId, policyVersionId: tightPolicyId, filters: {}, maxRuns: 10 },
      async () => {},
    );
    expect(other.job.id).not.toBe(id);
    await cancelReplayJob(db, caller.projectId, other.job.id);
    expect((await cancelReplayJob(db, caller.projectId, id)).status).toBe("cancelled");
    const again = await startReplay(db, caller, { copyVersionId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    expect(again.job.id).not.toBe(id);
    await again.done;
    expect((await getReplayJob(db, caller.projectId, again.job.id)).status).toBe("done");
  });

  it("reads a result stored in the older format as none, and never reuses it", async () => {
    const runs = await db.prisma.run.findMany({
      where: { projectId: caller.projectId },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: 10,
    });
    const oldKey = createHash("sha256")
      .update(JSON.stringify({ c: longCopyId, p: null, runs: runs.map((r) => [r.id, r.eventCount]) }))
      .digest("hex");
    const oldResult = {
      runs: 3,
      turns: 450,
      keys: [],
      changedRuns: [],
      followUp: REMINDER_KEYS.map((key) => ({ key, delivered: 1, followed: 0, rate: 0, low: 0, high: 0.79 })),
    };
    const row = await db.prisma.replayJob.create({
      data: {
        projectId: caller.projectId,
        copyVersionId: longCopyId,
        filters: {},
        inputKey: oldKey,
        status: "done",
        result: oldResult as Prisma.InputJsonValue,
        finishedAt: new Date(),
      },
    });
    const old = await getReplayJob(db, caller.projectId, row.id);
    expect(old).toMatchObject({ id: row.id, status: "done", result: null, error: OLD_RESULT_FORMAT });
    expect(
      ZReplayJob.parse(await (await replayJobRoute(get(secret, `/replay/${row.id}`), { params: Promise.resolve({ id: row.id }) })).json())
        .result,
    ).toBeNull();

    const again = await startReplay(db, caller, { copyVersionId: longCopyId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    expect(again.job.id).not.toBe(row.id);
    await again.done;
  });

  it("shows a turn of a run that grew since its last rebuild like with like: the what-if of the events that rebuild included", async () => {
    const { job, done } = await startReplay(db, caller, { copyVersionId: ownCopyId, filters: {}, maxRuns: 10 }, inlineReplays(db));
    await done;
    const before = await getReplayTurn(db, taskThreads(0), caller.projectId, job.id, "replay-a", 10);
    expect(before.changes).toEqual([]);
    // A new turn arrives; its rebuild has not run yet.
    const grown = turnEvents("replay-a", 150, 60, 20_000).map((e) => ({ ...e, id: `replay-a:late-${String(e.id)}` }));
    expect((await ingestBatch(db, caller.projectId, grown)).summary.created).toBe(grown.length);
    await expect(getReplayTurn(db, taskThreads(0), caller.projectId, job.id, "replay-a", 150)).rejects.toMatchObject({ kind: "not_found" });
    expect(await getReplayTurn(db, taskThreads(0), caller.projectId, job.id, "replay-a", 10)).toEqual(before);
    // Once rebuilt, the new turn is there on both sides.
    await settleRebuilds(db);
    const after = await getReplayTurn(db, taskThreads(0), caller.projectId, job.id, "replay-a", 150);
    expect(after.baseline?.turn).toBe(150);
    expect(after.whatIf).toEqual(after.baseline);
  });

  it("keys the turn view on the stored rebuild its baseline is of, even when a rebuild lands while it reads", async () => {
    const sameCopy = (await createCopyVersion(db, caller, { name: "own again", copy: {} })).id;
    const { job, done } = await startReplay(db, caller, { copyVersionId: sameCopy, filters: {}, maxRuns: 10 }, inlineReplays(db));
    await done;
    // The database as it is, except that right after the first read of the run's stored rebuild
    // version, a new turn arrives and is rebuilt (a background rebuild landing mid-request).
    let landed = false;
    const land = async () => {
      const grown = turnEvents("replay-c", 150, 60, 20_000).map((e) => ({ ...e, id: `replay-c:late-${String(e.id)}` }));
      await ingestBatch(db, caller.projectId, grown);
      await settleRebuilds(db);
    };
    const cache = db.prisma.runDecisionsCache;
    const hookedCache = new Proxy(cache, {
      get(target, prop, receiver) {
        if (prop !== "findUnique") return Reflect.get(target, prop, receiver);
        return async (args: Parameters<typeof cache.findUnique>[0]) => {
          const row = await target.findUnique(args);
          if (!landed) {
            landed = true;
            await land();
          }
          return row;
        };
      },
    });
    const prisma = new Proxy(db.prisma, {
      get: (target, prop, receiver) => (prop === "runDecisionsCache" ? hookedCache : Reflect.get(target, prop, receiver)),
    });
    const hooked: Database = { ...db, prisma };
    const view = await getReplayTurn(hooked, taskThreads(0), caller.projectId, job.id, "replay-c", 10);
    expect(landed).toBe(true);
    // The same copy on both sides, over the same events: nothing changed anywhere in the run.
    expect(view.changes).toEqual([]);
    expect(view.nextChanged).toBeNull();
    expect(view.whatIf).toEqual(view.baseline);
    // Asked again, the view is of the new stored rebuild, the new turn on both sides.
    const after = await getReplayTurn(db, taskThreads(0), caller.projectId, job.id, "replay-c", 150);
    expect(after.baseline?.turn).toBe(150);
    expect(after.whatIf).toEqual(after.baseline);
  });

  it("counts the runs and turns a replay would take before it starts, from stored counts, in the caller's project only", async () => {
    const count = async (key: string, query: string) => {
      const response = await replayMatchingRoute(get(key, `/replay/matching${query}`), { params: Promise.resolve({}) });
      expect(response.status).toBe(200);
      return ZReplayMatching.parse(await response.json());
    };
    const runs = await db.prisma.run.findMany({ where: { projectId: caller.projectId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }] });
    const turnsOf = (rows: typeof runs) => rows.reduce((sum, r) => sum + (r.maxTurn === null ? 0 : r.maxTurn + 1), 0);
    expect(await count(secret, "")).toEqual({ runs: runs.length, turns: turnsOf(runs), more: false, maxRuns: 500 });
    expect(await count(secret, "?maxRuns=2")).toEqual({ runs: 2, turns: turnsOf(runs.slice(0, 2)), more: true, maxRuns: 2 });
    expect(await count(secret, "?agent=nobody")).toEqual({ runs: 0, turns: 0, more: false, maxRuns: 500 });
    // What the count says is what a replay takes.
    const { job, done } = await startReplay(db, caller, { copyVersionId: ownCopyId, filters: {}, maxRuns: 2 }, inlineReplays(db));
    await done;
    expect([job.progress.totalRuns, job.progress.totalTurns]).toEqual([2, turnsOf(runs.slice(0, 2))]);
    const bad = await replayMatchingRoute(get(secret, "/replay/matching?maxRuns=0"), { params: Promise.resolve({}) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ path: "maxRuns", message: expect.stringMatching(/./) });
    const stranger = (await createKey(db, "counting-elsewhere")).secret;
    expect(await count(stranger, "")).toEqual({ runs: 0, turns: 0, more: false, maxRuns: 500 });
  });

  it("lists the project's recent replays newest first, without their results, and none of another project's", async () => {
    const started = await startReplay(
      db,
      caller,
      { policyVersionId: tightPolicyId, filters: { status: "completed" }, maxRuns: 1 },
      inlineReplays(db),
    );
    await started.done;
    const response = await replayListRoute(get(secret, "/replay"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const { replays } = ZReplayList.parse(await response.json());
    const rows = await db.prisma.replayJob.findMany({
      where: { projectId: caller.projectId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(replays.map((r) => r.id)).toEqual(rows.slice(0, 20).map((r) => r.id));
    const done = replays.find((r) => r.id === started.job.id)!;
    expect(done).toMatchObject({ status: "done", policyVersionId: tightPolicyId, copyVersionId: null, filters: { status: "completed" } });
    expect(done).not.toHaveProperty("result");
    expect(done).toMatchObject({ progress: { doneRuns: done.progress.totalRuns }, finishedAt: expect.any(String) });
    const stranger = (await createKey(db, "listing-elsewhere")).secret;
    const theirs = await replayListRoute(get(stranger, "/replay"), { params: Promise.resolve({}) });
    expect(ZReplayList.parse(await theirs.json()).replays).toEqual([]);
  });
});
