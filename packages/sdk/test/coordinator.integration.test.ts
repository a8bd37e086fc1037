import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/server/db";
import { settleRebuilds } from "@/lib/server/rebuild/settle";
import { getDecisions } from "@/lib/server/runs/run-reads";
import { testDatabases } from "@/lib/server/testing/databases";
import { createCoordinator, type TurnPlan } from "../src/coordinator";
import { createCuescope, type CuescopeError } from "../src/index";
import { closeHostedIngest, openHostedIngest, type IngestHost } from "./ingest-host";

// Issue 13 part 2: a run whose reminders the in-process coordinator decided, recorded through the
// SDK into the real ingest route, rebuilds on the server with zero findings; a run whose agent
// changed what it sent does not.

const POLICY = {
  requests: { limit: 60, deliveryReserve: 6, stages: [0.5, 0.75, 0.9] },
  time: { limitMs: 1_200_000, stages: [0.5, 0.75, 0.9] },
  context: { capacityBytes: 9_000, stages: [0.7, 0.85, 0.95] },
  edits: { perBlockLimit: 3, stages: [0.5, 1.0] },
  review: { everyTurns: 8 },
  reviewer: { autoReviewAllowed: true, minRequestsLeft: 6 },
};

/**
 * A scripted agent of `turns` turns: readings first, then the coordinator's decision, the
 * submission, the Reviewer candidate (dispatched when admitted, completed ten turns later), edits
 * reported on the next turn, a failed and an uncertain request now and then. `tamper` may change
 * the plan before it is recorded as sent.
 */
function driveRun(run: Parameters<typeof createCoordinator>[0], turns: number, tamper?: (plan: TurnPlan) => TurnPlan) {
  const coordinator = createCoordinator(run);
  let used = 0;
  let required = 4_000;
  const edits = new Map<string, number>();
  let pendingEdit: string | null = null;
  let dispatch: { id: string; until: number } | null = null;
  const plans: TurnPlan[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    used += turn % 5 === 0 ? 2 : 1;
    run.meterRequests({ used }, { turn });
    run.meterTime({ elapsedMs: turn * 40_000 }, { turn });
    if (pendingEdit) run.blockEdited({ blockId: pendingEdit, used: edits.get(pendingEdit)! }, { turn });
    pendingEdit = null;
    if (dispatch && dispatch.until === turn) {
      run.reviewerCompleted({ dispatchId: dispatch.id, verdict: "ok" }, { turn });
      dispatch = null;
    }
    required = turn === 18 ? 5_000 : required + 260;
    // Every third turn also says what fills the request (contract §11), with the provider's tokens.
    const anatomy =
      turn % 3 === 0
        ? { providerTokens: 1_000 + turn, providerCachedTokens: 800, contextParts: { system: 1_200, history: required - 1_500 } }
        : {};
    const plan = coordinator.decide({ turn, requiredBytes: required, ...anatomy });
    plans.push(plan);
    const outcome = turn % 11 === 0 ? "failed" : turn % 13 === 0 ? "uncertain" : "ok";
    coordinator.submitted(tamper ? tamper(plan) : plan, outcome);
    const admission = coordinator.reviewer(plan);
    if (admission?.granted) {
      dispatch = { id: `d-${turn}`, until: turn + 10 }; // runs past the next checkpoint: that candidate is denied
      run.reviewerDispatched({ candidateId: admission.candidateId, dispatchId: dispatch.id }, { turn });
    }
    const block = `b${1 + (turn % 3)}`;
    if (turn % 2 === 0) {
      edits.set(block, (edits.get(block) ?? 0) + 1);
      pendingEdit = block;
      run.modelAction({ kind: "edit_block", blockId: block }, { turn });
    } else run.modelAction({ kind: "tool_call" }, { turn });
  }
  run.end({ status: "completed" });
  return { coordinator, plans };
}

describe.each(testDatabases())("the in-process coordinator on $name", (kind) => {
  let db: Database;
  let key: string;
  let host: IngestHost;

  beforeAll(async () => void ({ db, key, host } = await openHostedIngest(kind, "coordinator")), 60_000);
  afterAll(() => closeHostedIngest({ db, host }));

  async function serverDecisions(runId: string) {
    await settleRebuilds(db);
    const run = await db.prisma.run.findFirstOrThrow({ where: { runId } });
    return { run, decisions: await getDecisions(db, run.projectId, runId) };
  }

  function client() {
    const errors: CuescopeError[] = [];
    const cs = createCuescope({ url: host.url, apiKey: key, flushOnExit: false, flushIntervalMs: 20, onError: (e) => errors.push(e) });
    return { cs, errors };
  }

  it("a run it decided rebuilds on the server with zero findings, reminders and Reviewer flow included", async () => {
    const { cs, errors } = client();
    const run = cs.startRun({ task: "Compare ETF fees", agent: "coordinated", policy: POLICY });
    const { coordinator, plans } = driveRun(run, 40);
    await cs.shutdown();
    expect(errors).toEqual([]);
    expect(coordinator.findings()).toEqual([]);

    const { run: stored, decisions } = await serverDecisions(run.runId);
    expect(stored.status).toBe("completed");
    expect(decisions.findings).toEqual([]);
    expect(decisions.turns).toHaveLength(40);
    const parts = decisions.turns
      .filter((t) => t.contextParts)
      .map((t) => [t.turn, t.contextParts!.system, t.requiredBytes - t.contextParts!.history!]);
    expect(parts).toEqual(Array.from({ length: 13 }, (_, k) => [3 * (k + 1), 1_200, 1_500]));
    // the run exercised what it should: notices, states, suggestions, drops, Reviewer candidates
    const reminders = decisions.turns.flatMap((t) => t.reminders);
    expect(new Set(reminders.map((r) => r.key))).toEqual(new Set(["requests", "time", "context", "edits", "review"]));
    expect(reminders.some((r) => r.status === "dropped")).toBe(true);
    expect(reminders.some((r) => r.status === "failed")).toBe(true);
    const admissions = decisions.turns.flatMap((t) => (t.reviewer ? [t.reviewer.admission] : []));
    expect(admissions.some((a) => a.granted)).toBe(true);
    expect(admissions.some((a) => !a.granted)).toBe(true);
    // each plan is the server's decision for its turn, with the status the submission gave it
    for (const plan of plans) {
      const server = decisions.turns.find((t) => t.turn === plan.turn)!;
      expect(server.reminders.map(({ status: _s, ...r }) => r)).toEqual(plan.reminders.map(({ status: _s, ...r }) => r));
      expect(plan.text).toBe(plan.included.map((r) => `${r.text}\n`).join(""));
    }
  });

  it("a run whose agent left a reminder out of what it recorded gets MISSING_REMINDER on that turn", async () => {
    const { cs, errors } = client();
    const run = cs.startRun({ task: "Compare ETF fees", agent: "tampered", policy: POLICY });
    let tamperedTurn = -1;
    const { coordinator } = driveRun(run, 24, (plan) => {
      if (tamperedTurn >= 0 || plan.included.length === 0 || plan.turn % 11 === 0) return plan;
      tamperedTurn = plan.turn;
      return { ...plan, list: plan.list.slice(1) };
    });
    await cs.shutdown();
    expect(errors).toEqual([]);
    expect(tamperedTurn).toBeGreaterThan(0);
    const expected = [expect.objectContaining({ code: "MISSING_REMINDER", turn: tamperedTurn })];
    expect(coordinator.findings()).toEqual(expected);
    expect((await serverDecisions(run.runId)).decisions.findings).toEqual(expected);
  });
});
