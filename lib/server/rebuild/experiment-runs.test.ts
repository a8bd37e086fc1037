/**
 * Contract §10: the rebuild stores each experiment run's row (experiment_runs) and the triggers keep
 * experiment_rollups their exact sums. Checked against a recount made here straight from the core's
 * decisions and the events (not through lib/derived/effectiveness), through full and resumed
 * rebuilds, a holdout arm, mismatched, unknown and live runs, and a deleted run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REMINDER_KEYS, ZEvent, type TEvent, type TPolicy, type TRunDecisions, type TTurnDecision } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { assignArm } from "@/lib/core/experiment-assignment";
import { defaultEtfPolicy, generateEtfRun, type TRawEvent } from "@/lib/demo/etf-run";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { taskThreads } from "@/lib/server/background/tasks";
import { testDatabases } from "@/lib/server/testing/databases";
import { getEffectiveness, getRunEffectiveness } from "@/lib/server/trends/effectiveness";
import { rebuildRun } from "./rebuild-run";

const EXPERIMENT = "exp-requests";
const ARMS = [
  { name: "control", weight: 1 },
  { name: "holdout", weight: 1 },
];
const TURNS = 40;

type Plan = {
  runId: string;
  experiment?: { id: string; arm: string };
  holdout?: boolean;
  ended?: "completed" | "failed" | null;
  batches?: number;
};

/** §8's rule, written out again: whether the related action follows a reminder of turn t, or null when it is not followed up. */
function followedHere(
  reminder: { key: string; subject: string | null },
  turn: TTurnDecision,
  byTurn: Map<number, TTurnDecision>,
  actions: { turn: number; kind: string; blockId?: string }[],
): boolean | null {
  const within = (kinds: string[], blockId?: string) =>
    actions.some(
      (a) => a.turn > turn.turn && a.turn <= turn.turn + 3 && kinds.includes(a.kind) && (blockId === undefined || a.blockId === blockId),
    );
  if (reminder.key === "requests" || reminder.key === "time") return within(["finalize"]);
  if (reminder.key === "review") return within(["review_objectives", "check_evidence"]);
  if (reminder.key === "context") {
    const next = byTurn.get(turn.turn + 1);
    return next !== undefined && next.requiredBytes < turn.requiredBytes;
  }
  const block = turn.meters.edits?.find((b) => b.blockId === reminder.subject);
  if (!block || block.used < block.limit) return null;
  return !within(["edit_block"], reminder.subject ?? undefined);
}

/** Every reminder of the decisions with whether §8 follows it up (null: §8 does not decide). */
function followUps(events: TEvent[], d: TRunDecisions) {
  const seen = new Set<string>();
  const actions = events.flatMap((e) => {
    if (e.type !== "model.action" || seen.has(e.id)) return [];
    seen.add(e.id);
    return [{ turn: e.turn, kind: e.body.kind, blockId: e.body.blockId }];
  });
  const byTurn = new Map(d.turns.map((t) => [t.turn, t]));
  return d.turns.flatMap((t) => t.reminders.map((r) => ({ ...r, followed: followedHere(r, t, byTurn, actions) })));
}

/** One ended run's counts as contract §10 defines them, from its events alone. */
function recount(events: TEvent[], key: string): Record<string, number> {
  const decisions = rebuild(events);
  const started = events.find((e) => e.type === "run.started")!;
  const ended = events.find((e) => e.type === "run.ended");
  const policy = (started.type === "run.started" ? started.body.policy : {}) as TPolicy;
  const section = policy[key as "requests"];
  let dueDecisions: TRunDecisions = decisions;
  if (section?.remind === false) {
    const { remind: _off, ...on } = section;
    dueDecisions = rebuild(events, { policy: { ...policy, [key]: on } });
  }
  const list = (d: TRunDecisions) => followUps(events, d);
  const own = list(decisions);
  const c: Record<string, number> = { runs: 1 };
  const ratio = (m: string, x: number, y: number) =>
    Object.assign(c, { [`${m}.x`]: x, [`${m}.y`]: y, [`${m}.xx`]: x * x, [`${m}.yy`]: y * y, [`${m}.xy`]: x * y });
  for (const k of REMINDER_KEYS) {
    const mine = own.filter((r) => r.key === k);
    const due = (k === key ? list(dueDecisions) : own).filter((r) => r.key === k && r.followed !== null);
    ratio(`due.${k}`, due.filter((r) => r.followed).length, due.length);
    const delivered = mine.filter((r) => r.status === "delivered" && r.followed !== null);
    ratio(`followUp.${k}`, delivered.filter((r) => r.followed).length, delivered.length);
    ratio(`drop.${k}`, mine.filter((r) => r.status === "dropped").length, mine.length);
  }
  const bytes = own.filter((r) => r.status === "delivered").reduce((s, r) => s + r.bytes, 0);
  ratio("bytesPerTurn", bytes, decisions.turns.length);
  ratio("findingsPerTurn", decisions.findings.length, decisions.turns.length);
  c.finished = ended?.type === "run.ended" && ended.body.status === "completed" ? 1 : 0;
  const lastRequests = decisions.turns.filter((t) => t.meters.requests).at(-1)?.meters.requests;
  if (lastRequests) {
    const left = lastRequests.limit - lastRequests.reserve - lastRequests.used;
    Object.assign(c, {
      "outOfRequests.n": 1,
      "outOfRequests.x": lastRequests.used >= lastRequests.limit - lastRequests.reserve ? 1 : 0,
      "requestsLeft.n": 1,
      "requestsLeft.sum": left,
      "requestsLeft.sumSq": left * left,
    });
  }
  const lastTime = decisions.turns.filter((t) => t.meters.time).at(-1)?.meters.time;
  if (lastTime) {
    const left = lastTime.limitMs - lastTime.elapsedMs;
    Object.assign(c, {
      "outOfTime.n": 1,
      "outOfTime.x": lastTime.elapsedMs >= lastTime.limitMs ? 1 : 0,
      "timeLeftMs.n": 1,
      "timeLeftMs.sum": left,
      "timeLeftMs.sumSq": left * left,
    });
  }
  return c;
}

describe.each(testDatabases())("experiment runs and rollups on $name", (kind) => {
  let db: Database;
  let projectId: string;
  const threads = taskThreads(0);

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "experiments")).secret}`)).projectId;
    await db.prisma.experiment.create({
      data: { id: EXPERIMENT, projectId, name: "requests copy", key: "requests", status: "running", createdBy: "test" },
    });
    for (const [position, arm] of ARMS.entries()) {
      await db.prisma.experimentArm.create({
        data: { projectId, experimentId: EXPERIMENT, position, name: arm.name, weight: arm.weight, plannedRuns: 10 },
      });
    }
  }, 180_000);
  afterAll(async () => db?.close());

  it("stores each run's row and keeps the rollups the sums of a recount, through resumes and a delete", async () => {
    // Runs assigned to each arm (contract §10 assignment): two of each, counted.
    const assigned = (arm: string) =>
      Array.from({ length: 40 }, (_, i) => `xr-${i}`)
        .filter((id) => assignArm(EXPERIMENT, id, ARMS).name === arm)
        .slice(0, 3);
    const [c1, c2, c3] = assigned("control");
    const [h1, h2] = assigned("holdout");
    const plans: Plan[] = [
      { runId: c1, experiment: { id: EXPERIMENT, arm: "control" }, batches: 4 },
      { runId: c2, experiment: { id: EXPERIMENT, arm: "control" }, ended: "failed" },
      { runId: h1, experiment: { id: EXPERIMENT, arm: "holdout" }, holdout: true, batches: 4 },
      { runId: h2, experiment: { id: EXPERIMENT, arm: "holdout" }, holdout: true },
      // Mismatched: a control run rendered as the holdout, and an arm the experiment does not have.
      { runId: c3, experiment: { id: EXPERIMENT, arm: "holdout" }, holdout: true },
      { runId: "xr-ghost", experiment: { id: EXPERIMENT, arm: "ghost" } },
      // Unknown experiment; a live run; a run in no experiment.
      { runId: "xr-unknown", experiment: { id: "exp-gone", arm: "control" } },
      { runId: "xr-live", experiment: { id: EXPERIMENT, arm: assignArm(EXPERIMENT, "xr-live", ARMS).name }, ended: null },
      { runId: "xr-none" },
    ];
    const eventsOf = new Map<string, TEvent[]>();
    const modes = new Map<string, string[]>();
    for (const [i, plan] of plans.entries()) {
      const base = defaultEtfPolicy(TURNS);
      const policy = plan.holdout ? { ...base, requests: { ...base.requests!, remind: false } } : base;
      let raw: TRawEvent[] = generateEtfRun({ runId: plan.runId, seed: 100 + i, turns: TURNS, policy }).events.map((e) => ({
        ...e,
        id: `${plan.runId}:${e.id}`,
      }));
      raw = raw.flatMap((e): TRawEvent[] => {
        if (e.type === "run.started" && plan.experiment) return [{ ...e, body: { ...e.body, experiment: plan.experiment } }];
        if (e.type === "run.ended") return plan.ended === null ? [] : plan.ended ? [{ ...e, body: { status: plan.ended } }] : [e];
        return [e];
      });
      const batches = plan.batches ?? 1;
      const size = Math.ceil(raw.length / batches);
      for (let b = 0; b < batches; b++) {
        await ingestBatch(db, projectId, raw.slice(b * size, (b + 1) * size));
        const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: plan.runId } } });
        // runs.experiment_id / experiment_arm as ingest keeps them from run.started.
        if (plan.experiment)
          await db.prisma.run.update({
            where: { projectId_id: { projectId, id: run.id } },
            data: { experimentId: plan.experiment.id, experimentArm: plan.experiment.arm },
          });
        const outcome = await rebuildRun(db, threads, projectId, run.id);
        expect(outcome.ok).toBe(true);
        modes.set(plan.runId, [...(modes.get(plan.runId) ?? []), outcome.mode!]);
      }
      eventsOf.set(
        plan.runId,
        raw.map((e) => ZEvent.parse(e)),
      );
    }
    // The batched control run was resumed to its end; the batched holdout run was too until its
    // run.ended, whose counts need every event (the rebuild with requests on): in full.
    expect(modes.get(c1)).toEqual(["full", "resumed", "resumed", "resumed"]);
    expect(modes.get(h1)).toEqual(["full", "resumed", "resumed", "full"]);

    const status = (plan: Plan): string => {
      if (plan.experiment!.id !== EXPERIMENT) return "unknown";
      if (plan.ended === null) return "live";
      return assignArm(EXPERIMENT, plan.runId, ARMS).name === plan.experiment!.arm ? "counted" : "mismatched";
    };
    const expected = (live: Plan[]) => {
      const sums = new Map<string, number>();
      for (const plan of live) {
        if (!plan.experiment) continue;
        const counts = status(plan) === "live" ? { runs: 1 } : recount(eventsOf.get(plan.runId)!, "requests");
        for (const [key, n] of Object.entries(counts)) {
          const at = [plan.experiment.id, plan.experiment.arm, status(plan), key].join("|");
          sums.set(at, (sums.get(at) ?? 0) + n);
        }
      }
      return [...sums].filter(([, n]) => n !== 0).map(([k, n]) => `${k}=${n}`);
    };
    const stored = async () =>
      (
        await db.prisma.$queryRawUnsafe<{ row: string }[]>(
          `SELECT concat_ws('|', experiment_id, arm, status, key) || '=' || n::text AS row FROM experiment_rollups WHERE project_id = $1`,
          projectId,
        )
      ).map((r) => r.row);
    const sorted = (rows: string[]) => [...rows].sort();

    expect(sorted(await stored())).toEqual(sorted(expected(plans)));

    // GET /api/v1/effectiveness?experiment=&arm=: the delivered and dropped reminders §8 decides, and
    // those followed, of the runs whose run.started named that arm (whatever their status), per key.
    const days = [...eventsOf.values()]
      .flat()
      .map((e) => e.ts.slice(0, 10))
      .sort();
    for (const arm of ["control", "holdout", "ghost", undefined]) {
      const named = plans.filter((p) => p.experiment?.id === EXPERIMENT && (arm === undefined || p.experiment.arm === arm));
      const want: Record<string, number[]> = {};
      for (const plan of named) {
        const events = eventsOf.get(plan.runId)!;
        for (const r of followUps(events, rebuild(events))) {
          if (r.followed === null || (r.status !== "delivered" && r.status !== "dropped")) continue;
          const c = (want[r.key] ??= [0, 0, 0, 0]);
          const at = r.status === "delivered" ? 0 : 2;
          c[at] += 1;
          if (r.followed) c[at + 1] += 1;
        }
      }
      const got: Record<string, number[]> = {};
      const answer = await getEffectiveness(db, projectId, { tz: "UTC", from: days[0], to: days.at(-1), experiment: EXPERIMENT, arm });
      for (const row of answer.rows.filter((r) => r.contextStage === null)) {
        const c = (got[row.key] ??= [0, 0, 0, 0]);
        [row.delivered, row.deliveredFollowed, row.dropped, row.droppedFollowed].forEach((n, i) => (c[i] += n));
      }
      expect(got, `arm ${arm ?? "(every arm)"}`).toEqual(want);
      expect(Object.keys(want).length).toBeGreaterThan(0);
    }

    // GET /api/v1/runs/:runId/effectiveness: one run's rows over all its turns, and its deliveries and
    // bytes per key, as recounted from its decisions.
    for (const runId of [c1, h1]) {
      const events = eventsOf.get(runId)!;
      const reminders = followUps(events, rebuild(events));
      const answer = await getRunEffectiveness(db, projectId, runId);
      const want: Record<string, number[]> = {};
      for (const r of reminders) {
        if (r.followed === null || (r.status !== "delivered" && r.status !== "dropped")) continue;
        // Contract §10: a review suggestion's stage is its checkpoint; its row takes every checkpoint together (stage null).
        const c = (want[`${r.key}.${r.key === "review" ? null : r.stage}`] ??= [0, 0, 0, 0]);
        const at = r.status === "delivered" ? 0 : 2;
        c[at] += 1;
        if (r.followed) c[at + 1] += 1;
      }
      const got = Object.fromEntries(
        answer.rows
          .filter((r) => r.contextStage === null)
          .map((r) => [`${r.key}.${r.stage}`, [r.delivered, r.deliveredFollowed, r.dropped, r.droppedFollowed]]),
      );
      expect(got, runId).toEqual(want);
      const delivered = reminders.filter((r) => r.status === "delivered");
      expect(Object.fromEntries(answer.fatigue.map((f) => [f.key, [f.deliveries, f.bytes]]))).toEqual(
        Object.fromEntries(
          [...new Set(delivered.map((r) => r.key))].map((key) => {
            const mine = delivered.filter((r) => r.key === key);
            return [key, [mine.length, mine.reduce((sum, r) => sum + r.bytes, 0)]];
          }),
        ),
      );
      expect(answer).toMatchObject({ runId, eventCount: events.length, rebuiltEvents: events.length });
    }
    // The holdout delivered no requests notice: its fatigue has no requests row.
    expect((await getRunEffectiveness(db, projectId, h1)).fatigue.map((f) => f.key)).not.toContain("requests");
    // Another project's run is not found.
    const other = (await authenticate(db, `Bearer ${(await createKey(db, "experiments-other")).secret}`)).projectId;
    await expect(getRunEffectiveness(db, other, c1)).rejects.toMatchObject({ kind: "not_found" });
    // The statuses, and the arm assignment gives; no row for the run in no experiment.
    const rows = await db.prisma.experimentRun.findMany({ where: { projectId }, include: { run: { select: { runId: true } } } });
    expect(Object.fromEntries(rows.map((r) => [r.run.runId, [r.status, r.assignedArm]]))).toEqual(
      Object.fromEntries(
        plans
          .filter((p) => p.experiment)
          .map((p) => [p.runId, [status(p), p.experiment!.id === EXPERIMENT ? assignArm(EXPERIMENT, p.runId, ARMS).name : null]]),
      ),
    );
    // The holdout's due requests reminders exist although it delivered none of them.
    const holdout = rows.find((r) => r.run.runId === h2)!.counts as Record<string, number>;
    expect(holdout["due.requests.y"]).toBeGreaterThan(0);
    expect(holdout["followUp.requests.y"]).toBeUndefined();

    // A rebuild with nothing new leaves everything as it was; a deleted run leaves the rollups.
    const c2Run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: c2 } } });
    expect((await rebuildRun(db, threads, projectId, c2Run.id)).mode).toBe("current");
    await db.prisma.run.delete({ where: { projectId_id: { projectId, id: c2Run.id } } });
    await db.prisma.run.deleteMany({ where: { projectId, runId: h2 } });
    expect(sorted(await stored())).toEqual(sorted(expected(plans.filter((p) => p.runId !== c2 && p.runId !== h2))));

    // The live run ends: its row moves from live to its arm's counted counts.
    const live = plans.find((p) => p.runId === "xr-live")!;
    const ending = generateEtfRun({ runId: live.runId, seed: 100 + plans.indexOf(live), turns: TURNS, policy: defaultEtfPolicy(TURNS) })
      .events.filter((e) => e.type === "run.ended")
      .map((e) => ({ ...e, id: `${live.runId}:${e.id}` }));
    await ingestBatch(db, projectId, ending);
    eventsOf.set(live.runId, [...eventsOf.get(live.runId)!, ...ending.map((e) => ZEvent.parse(e))]);
    live.ended = undefined;
    const liveRun = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId: live.runId } } });
    await rebuildRun(db, threads, projectId, liveRun.id);
    expect(sorted(await stored())).toEqual(sorted(expected(plans.filter((p) => p.runId !== c2 && p.runId !== h2))));
  }, 300_000);
});
