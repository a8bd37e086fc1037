import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGENT_COMPARISON_CODES,
  ZEvent,
  ZReplayWhatIfRun,
  ZRunComparison,
  type TCopy,
  type TEvent,
  type TPolicy,
  type TRunComparison,
  type TRunDecisions,
  type TTurnDecision,
} from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { replayApi } from "@/lib/endpoints";
import { authenticate, createKey, type Caller } from "@/lib/server/auth/keys";
import { startBackground, useBackground, type Background } from "@/lib/server/background/background";
import { taskThreads } from "@/lib/server/background/tasks";
import { useDatabase, type Database } from "@/lib/server/db";
import { routeOf } from "@/lib/server/http/api";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { testDatabases } from "@/lib/server/testing/databases";
import { inlineReplays } from "@/lib/server/testing/jobs";
import { createCopyVersion, createPolicyVersion } from "@/lib/server/versions/versions";
import { compareWithWhatIf, getWhatIfRun } from "./replay-compare";
import { startReplay } from "./replay-jobs";
import { getReplayTurn } from "./replay-turn";

const compareRoute = routeOf(replayApi.compare);
const whatIfRoute = routeOf(replayApi.whatIfRun);
const BASE = "http://cuescope.test/api/v1";
const get = (secret: string, path: string) => new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${secret}` } });
const params = (id: string, runId: string) => ({ params: Promise.resolve({ id, runId }) });

/** The replayed run: 700 turns (several slices of the comparison), and a run the replays never take. */
const RUN = "wi-run";
const OTHER = "wi-other";

/**
 * The turns where two rebuilds of the same events decided differently, worked out here turn by turn
 * from the core's output (independently of lib/derived/compare): a turn only one rebuilt, or other
 * reminders (key, subject, kind, stage, status) or another Reviewer decision; up to the earlier last turn.
 */
function differingTurns(a: TRunDecisions, b: TRunDecisions): number[] {
  const view = (t: TTurnDecision | undefined) =>
    t && {
      reminders: t.reminders.map(({ key, subject, kind, stage, status }) => [key, subject, kind, stage, status]),
      reviewer: t.reviewer,
    };
  const [ma, mb] = [new Map(a.turns.map((t) => [t.turn, t])), new Map(b.turns.map((t) => [t.turn, t]))];
  const last = Math.min(a.turns.at(-1)!.turn, b.turns.at(-1)!.turn);
  const out: number[] = [];
  for (let turn = 0; turn <= last; turn++) if (JSON.stringify(view(ma.get(turn))) !== JSON.stringify(view(mb.get(turn)))) out.push(turn);
  return out;
}

describe.each(testDatabases())("a run against its what-if replay on $name", (kind) => {
  let db: Database;
  let caller: Caller;
  let secret: string;
  let background: Background;
  let events: TEvent[];
  let earlier: TPolicy;
  let shortCopy: TCopy;
  let policyJob: string;
  let copyJob: string;

  async function compare(jobId: string, runId: string, query = ""): Promise<TRunComparison> {
    const response = await compareRoute(get(secret, `/replay/${jobId}/runs/${runId}/compare${query}`), params(jobId, runId));
    expect(response.status, query).toBe(200);
    return ZRunComparison.parse(await response.json());
  }

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    // The routes' loaders take the what-if rebuild to a job thread of this background (one real thread).
    background = await startBackground(db, { workers: 0, threads: taskThreads(1) });
    useBackground(background);
    secret = (await createKey(db, "what-if compare")).secret;
    caller = await authenticate(db, `Bearer ${secret}`);
    const raw = generateEtfRun({ runId: RUN, seed: 15, turns: 700 }).events.map((e) => ({ ...e, id: `${RUN}:${e.id}` }));
    const other = generateEtfRun({ runId: OTHER, seed: 16, turns: 40 }).events.map((e) => ({ ...e, id: `${OTHER}:${e.id}` }));
    await ingestBatch(db, caller.projectId, [...raw, ...other]);
    await settleRebuilds(db);
    events = raw.map((e) => ZEvent.parse(e));
    const started = events.find((e) => e.type === "run.started")!;
    const own = started.type === "run.started" ? started.body.policy : {};
    // Earlier context stages: some context notices come earlier, at another stage (decisions differ), and the stage lines move.
    earlier = { ...own, context: { ...own.context!, stages: [0.5, 0.7, 0.85, 0.95] } };
    // Other words for the context notice, short enough that every reminder fits as before.
    shortCopy = { context: { "*": "Context: {requiredBytes} B." } };
    const policyVersion = await createPolicyVersion(db, caller, { name: "earlier context", policy: earlier });
    const copyVersion = await createCopyVersion(db, caller, { name: "short context", copy: shortCopy });
    // One replay of a project at work at a time: one after the other.
    const byPolicy = await startReplay(
      db,
      caller,
      { policyVersionId: policyVersion.id, filters: { q: RUN }, maxRuns: 10 },
      inlineReplays(db),
    );
    await byPolicy.done;
    const byCopy = await startReplay(db, caller, { copyVersionId: copyVersion.id, filters: { q: RUN }, maxRuns: 10 }, inlineReplays(db));
    await byCopy.done;
    [policyJob, copyJob] = [byPolicy.job.id, byCopy.job.id];
  }, 180_000);
  afterAll(async () => {
    useBackground(undefined);
    await background?.close();
    await db?.close();
  });

  it("finds the first difference and steps through exactly the turns a turn-by-turn comparison of the core's rebuilds finds", async () => {
    const recorded = rebuild(events);
    const whatIf = rebuild(events, { policy: earlier });
    const expected = differingTurns(recorded, whatIf);
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.at(-1)!).toBeGreaterThan(256);

    const first = await compare(policyJob, RUN);
    expect(first).toMatchObject({
      a: RUN,
      b: RUN,
      ready: true,
      commonTurns: [0, 699],
      lastTurns: { a: 699, b: 699 },
      first: expected[0],
      turn: expected[0],
    });
    expect(first.decisions!.a).toEqual(recorded.turns.find((t) => t.turn === expected[0]));
    expect(first.decisions!.b).toEqual(whatIf.turns.find((t) => t.turn === expected[0]));
    expect(first.decisions!.difference).toMatch(/^reminders/);

    const forward: number[] = [];
    for (let at: number | null = first.turn; at !== null;) {
      forward.push(at);
      at = (await compare(policyJob, RUN, `?turn=${at}&direction=next`)).turn;
    }
    expect(forward).toEqual(expected);
    const last = await compare(policyJob, RUN, "?direction=previous");
    expect(last.turn).toBe(expected.at(-1));
    const back = await compare(policyJob, RUN, `?turn=${expected[2]}&direction=previous`);
    expect(back.turn).toBe(expected[1]);

    // At a turn both decided the same: shown, not stepped.
    const same = recorded.turns.find((t) => t.turn > expected[0] && !expected.includes(t.turn))!.turn;
    const at = await compare(policyJob, RUN, `?turn=${same}&direction=at`);
    expect(at).toMatchObject({ turn: same, first: expected[0], decisions: { difference: "same" } });
  });

  it("says the what-if under other wording alone decided the same, and shows a turn as the replay's turn view does", async () => {
    const whatIf = rebuild(events, { copy: shortCopy });
    expect(differingTurns(rebuild(events), whatIf)).toEqual([]);
    expect(await compare(copyJob, RUN)).toMatchObject({ ready: true, commonTurns: [0, 699], first: null, turn: null, decisions: null });
    expect((await compare(copyJob, RUN, "?direction=previous")).turn).toBeNull();
    // A turn with a context notice: the same decision in other words, as the turn view (the same rebuild, one cache) shows it.
    const turn = whatIf.turns.find((t) => t.reminders.some((r) => r.key === "context"))!.turn;
    const pair = await compare(copyJob, RUN, `?turn=${turn}&direction=at`);
    expect(pair.decisions!.difference).toBe("same");
    expect(pair.decisions!.b).toEqual(whatIf.turns.find((t) => t.turn === turn));
    const context = (t: TTurnDecision | null) => t!.reminders.find((r) => r.key === "context")!.text;
    expect(context(pair.decisions!.b)).not.toBe(context(pair.decisions!.a));
    const view = await getReplayTurn(db, background.threads, caller.projectId, copyJob, RUN, turn);
    expect(pair.decisions).toMatchObject({ a: view.baseline, b: view.whatIf });
  });

  it("serves the what-if's timeline with the replay's policy's stage lines, and its counts without the agent comparisons", async () => {
    const response = await whatIfRoute(get(secret, `/replay/${policyJob}/runs/${RUN}/timeline`), params(policyJob, RUN));
    expect(response.status).toBe(200);
    const run = ZReplayWhatIfRun.parse(await response.json());
    const whatIf = rebuild(events, { policy: earlier });
    const kept = whatIf.findings.filter((f) => !(AGENT_COMPARISON_CODES as readonly string[]).includes(f.code));
    const byCode: Record<string, number> = {};
    for (const f of kept) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
    const delivered = whatIf.turns.flatMap((t) => t.reminders).filter((r) => r.status === "delivered").length;
    const dropped = whatIf.turns.flatMap((t) => t.reminders).filter((r) => r.status === "dropped").length;
    expect(run).toMatchObject({
      jobId: policyJob,
      runId: RUN,
      policyVersionId: expect.any(String),
      copyVersionId: null,
      rebuiltTurns: whatIf.turns.length,
      findings: kept.length,
      findingsByCode: byCode,
      reminders: { delivered, dropped },
    });
    expect(run.timeline.runTurnRange).toEqual([0, 699]);
    // The context chart's stage lines are the replay's policy's: at 50%, 70%, 85%, 95% of the capacity.
    const capacity = earlier.context!.capacityBytes;
    const stageLines = run.timeline.context!.thresholds.map((t) => t.value);
    expect(stageLines).toEqual([0.5, 0.7, 0.85, 0.95].map((r) => r * capacity));
    // The recorded run's own timeline has its own policy's lines.
    const own = events.find((e) => e.type === "run.started")!;
    const ownStages = (own.type === "run.started" ? own.body.policy.context!.stages : []).map((r) => r * capacity);
    expect(ownStages).not.toEqual(stageLines);
  });

  it("rebuilds a what-if once when the comparison and the timeline are asked for at the same time", async () => {
    const policy = await createPolicyVersion(db, caller, {
      name: "later context",
      policy: { ...earlier, context: { ...earlier.context!, stages: [0.8, 0.9] } },
    });
    const started = await startReplay(db, caller, { policyVersionId: policy.id, filters: { q: RUN }, maxRuns: 10 }, inlineReplays(db));
    await started.done;
    let rebuilds = 0;
    const counting = { run: (...args: Parameters<typeof background.threads.run>) => (rebuilds++, background.threads.run(...args)) };
    const threads = counting as unknown as typeof background.threads;
    const [comparison, run] = await Promise.all([
      compareWithWhatIf(db, threads, caller.projectId, started.job.id, RUN, { direction: "next" }),
      getWhatIfRun(db, threads, caller.projectId, started.job.id, RUN),
      getReplayTurn(db, threads, caller.projectId, started.job.id, RUN, 10),
    ]);
    expect(rebuilds).toBe(1);
    const expected = differingTurns(
      rebuild(events),
      rebuild(events, { policy: { ...earlier, context: { ...earlier.context!, stages: [0.8, 0.9] } } }),
    );
    expect(comparison.first).toBe(expected[0] ?? null);
    expect(run.timeline.context!.thresholds.map((t) => t.ratio)).toEqual([0.8, 0.9]);
  });

  it("answers 404 naming the replay or the run, and 400 naming a bad query's field", async () => {
    const cases: [string, string, string, number, string][] = [
      ["nope", RUN, "", 404, "id"],
      [policyJob, "nobody", "", 404, "runId"],
      [policyJob, OTHER, "", 404, "runId"],
      [policyJob, RUN, "?turn=x", 400, "turn"],
      [policyJob, RUN, "?turn=-1", 400, "turn"],
      [policyJob, RUN, "?direction=sideways", 400, "direction"],
    ];
    for (const [id, runId, query, status, path] of cases) {
      const response = await compareRoute(get(secret, `/replay/${id}/runs/${runId}/compare${query}`), params(id, runId));
      expect(response.status, `${id} ${runId} ${query}`).toBe(status);
      const { error } = await response.json();
      expect(error.path, `${id} ${runId} ${query}`).toBe(path);
      if (status === 404) expect(error.message).toContain(JSON.stringify(id === "nope" ? id : runId));
    }
    const notReplayed = await whatIfRoute(get(secret, `/replay/${policyJob}/runs/${OTHER}/timeline`), params(policyJob, OTHER));
    expect(notReplayed.status).toBe(404);
    expect((await notReplayed.json()).error).toMatchObject({ path: "runId", message: expect.stringContaining(`"${OTHER}" is not one of`) });
    // Another project's key finds neither the replay nor the run.
    const stranger = (await createKey(db, "what-if elsewhere")).secret;
    const theirs = await compareRoute(get(stranger, `/replay/${policyJob}/runs/${RUN}/compare`), params(policyJob, RUN));
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).error.path).toBe("id");
  });
});
