/** Contract §10: delivered and dropped reminders, fatigue, and one run's experiment counts. Expectations worked out by hand. */
import { describe, expect, it } from "vitest";
import type { TEvent, TPolicy, TReminderDecision, TRunDecisions, TTurnDecision, TTurnMeters } from "@/lib/contracts";
import { actionsByTurn } from "@/lib/core";
import { addEffectCounts, addFatigueCounts, duePolicyOf, experimentRunCounts } from "./effectiveness";

type Key = TReminderDecision["key"];
type Status = TReminderDecision["status"];

function r(key: Key, status: Status, opts: { stage?: number; subject?: string | null; bytes?: number } = {}): TReminderDecision {
  const kind = key === "review" ? "suggestion" : key === "edits" ? "state" : "notice";
  return { key, subject: opts.subject ?? null, kind, stage: opts.stage ?? 1, text: key, bytes: opts.bytes ?? 10, status };
}

function t(n: number, reminders: TReminderDecision[] = [], opts: { requiredBytes?: number; meters?: TTurnMeters } = {}): TTurnDecision {
  return {
    turn: n,
    requiredBytes: opts.requiredBytes ?? 100,
    capacityBytes: null,
    freeBytesAfter: null,
    meters: opts.meters ?? {},
    reminders,
    reviewer: null,
  };
}

const ctx = (stage: number, capacityBytes = 1000) => ({ context: { requiredBytes: 100, capacityBytes, ratio: 0.1, stage } });

let ids = 0;
function act(turn: number, kind: "finalize" | "check_evidence" | "edit_block" | "append_block", blockId?: string): TEvent {
  return { id: `a${++ids}`, runId: "r", type: "model.action", ts: "2026-03-29T00:00:00Z", turn, body: { kind, blockId } } as TEvent;
}

const run = (turns: TTurnDecision[], findings = 0): TRunDecisions => ({
  runId: "r",
  turns,
  findings: Array.from({ length: findings }, () => ({ code: "MISSING_REMINDER" as const, turn: null, detail: "" })),
});

/** The counts added, as `turn|key` → n (turn `run` for run-level ones). */
function collect(fill: (add: (turn: number | null, key: string, n: number) => void) => void): Record<string, number> {
  const out: Record<string, number> = {};
  fill((turn, key, n) => {
    const k = `${turn ?? "run"}|${key}`;
    out[k] = (out[k] ?? 0) + n;
  });
  return out;
}

const block = (blockId: string, used: number, limit: number) => ({ blockId, used, limit, ratio: used / limit, stage: 1 });

describe("§10 delivered and dropped reminders", () => {
  it.each<{ name: string; decisions: TRunDecisions; events: TEvent[]; want: Record<string, number> }>([
    {
      name: "a delivered and a dropped requests notice, both followed by a finalize within 3 turns",
      decisions: run([t(1, [r("requests", "delivered")], { meters: ctx(2) }), t(2, [r("requests", "dropped")]), t(3)]),
      events: [act(4, "finalize")],
      // turn 1: finalize at 4 = t+3 → followed; turn 2: 4 = t+2 → followed. Turn 2 has no context meter: none.
      want: {
        "1|effect.requests.1.2.delivered": 1,
        "1|effect.requests.1.2.deliveredFollowed": 1,
        "2|effect.requests.1.none.dropped": 1,
        "2|effect.requests.1.none.droppedFollowed": 1,
      },
    },
    {
      name: "a finalize at t+4 or at t itself does not follow; failed, uncertain and pending are not counted",
      decisions: run([
        t(1, [r("time", "delivered", { stage: 2 }), r("requests", "failed"), r("review", "uncertain"), r("review", "pending")]),
        t(2),
      ]),
      events: [act(1, "finalize"), act(5, "finalize"), act(3, "check_evidence")],
      want: { "1|effect.time.2.none.delivered": 1 },
    },
    {
      name: "context notice: followed when turn t+1 needs fewer bytes, not when t+1 is missing",
      decisions: run([
        t(1, [r("context", "dropped")], { requiredBytes: 500, meters: ctx(1) }),
        t(2, [r("context", "delivered")], { requiredBytes: 400, meters: ctx(1) }),
        t(4, [r("context", "delivered")], { requiredBytes: 100, meters: ctx(0) }),
        t(5, [], { requiredBytes: 200 }),
      ]),
      events: [],
      // 1 → 2: 400 < 500, followed; 2 → 3: no turn 3 (4 is not t+1), not followed; 4 → 5: 200 > 100, not followed.
      want: {
        "1|effect.context.1.1.dropped": 1,
        "1|effect.context.1.1.droppedFollowed": 1,
        "2|effect.context.1.1.delivered": 1,
        "4|effect.context.1.0.delivered": 1,
      },
    },
    {
      name: "edits: only an exhausted block's state, followed when that block is not edited in the window",
      decisions: run([
        t(
          1,
          [
            r("edits", "delivered", { subject: "b1" }),
            r("edits", "dropped", { subject: "b2" }),
            r("edits", "delivered", { subject: "b3" }),
          ],
          { meters: { edits: [block("b1", 2, 2), block("b2", 3, 2), block("b3", 1, 2)] } },
        ),
      ]),
      // b1 only appended: followed; b2 edited at t+2: not followed; b3 not exhausted: not counted.
      events: [act(2, "append_block", "b1"), act(3, "edit_block", "b2"), act(2, "edit_block", "b3")],
      want: { "1|effect.edits.1.none.delivered": 1, "1|effect.edits.1.none.deliveredFollowed": 1, "1|effect.edits.1.none.dropped": 1 },
    },
    {
      name: "review suggestions of checkpoints 1, 2 and 3 are counted for every checkpoint together (their stage is the checkpoint)",
      decisions: run([
        t(10, [r("review", "delivered", { stage: 1 })], { meters: ctx(1) }),
        t(20, [r("review", "dropped", { stage: 2 })], { meters: ctx(1) }),
        t(30, [r("review", "delivered", { stage: 3 })], { meters: ctx(2) }),
      ]),
      // check_evidence at 11 follows checkpoint 1 (t+1) and not 2 (before it); review_objectives at 33 follows 3 (t+3).
      events: [act(11, "check_evidence"), { ...act(33, "check_evidence"), body: { kind: "review_objectives" } } as TEvent],
      want: {
        "10|effect.review.all.1.delivered": 1,
        "10|effect.review.all.1.deliveredFollowed": 1,
        "20|effect.review.all.1.dropped": 1,
        "30|effect.review.all.2.delivered": 1,
        "30|effect.review.all.2.deliveredFollowed": 1,
      },
    },
  ])("$name", ({ decisions, events, want }) => {
    expect(collect((add) => addEffectCounts(decisions, actionsByTurn(events), add))).toEqual(want);
  });
});

describe("§10 fatigue", () => {
  it.each<{ name: string; decisions: TRunDecisions; want: Record<string, number> }>([
    {
      name: "repeats of a (key, subject, stage), their gaps, bytes and the dominating key",
      decisions: run([
        t(1, [r("edits", "delivered", { subject: "b1", bytes: 30 }), r("review", "delivered", { bytes: 20 })], { meters: ctx(0, 1000) }),
        t(2, [r("edits", "delivered", { subject: "b2", bytes: 30 }), r("review", "dropped", { bytes: 20 })]),
        t(4, [r("edits", "delivered", { subject: "b1", bytes: 30 })], { meters: ctx(1, 800) }),
        t(7, [r("edits", "delivered", { subject: "b1", bytes: 30 }), r("edits", "delivered", { subject: "b1", stage: 2, bytes: 30 })]),
      ]),
      // edits b1 stage 1 delivered at 1, 4, 7: 2 repeats, gaps 3 + 3; b2 and b1 stage 2 once each.
      // Bytes: edits 5 × 30 = 150, review 20; total 170, edits > 85: edits dominates.
      // Context meter on turns 1 and 4: capacity 1000 + 800; context bytes: turn 1 30 + 20, turn 4 30.
      want: {
        "1|fatigue.capacityBytes": 1000,
        "1|fatigue.edits.bytes": 30,
        "1|fatigue.edits.contextBytes": 30,
        "1|fatigue.review.bytes": 20,
        "1|fatigue.review.contextBytes": 20,
        "2|fatigue.edits.bytes": 30,
        "4|fatigue.capacityBytes": 800,
        "4|fatigue.edits.bytes": 30,
        "4|fatigue.edits.contextBytes": 30,
        "4|fatigue.edits.repeats": 1,
        "4|fatigue.edits.repeatGapTurns": 3,
        "7|fatigue.edits.bytes": 60,
        "7|fatigue.edits.repeats": 1,
        "7|fatigue.edits.repeatGapTurns": 3,
        "run|fatigue.runsWithReminderBytes": 1,
        "run|fatigue.edits.dominatedRuns": 1,
      },
    },
    {
      name: "exactly half is not dominating; a run without deliveries has no run-level counts",
      decisions: run([t(1, [r("requests", "delivered", { bytes: 40 }), r("time", "delivered", { bytes: 40 })]), t(2)]),
      want: { "1|fatigue.requests.bytes": 40, "1|fatigue.time.bytes": 40, "run|fatigue.runsWithReminderBytes": 1 },
    },
    {
      name: "nothing delivered",
      decisions: run([t(1, [r("requests", "dropped")])]),
      want: {},
    },
  ])("$name", ({ decisions, want }) => {
    expect(collect((add) => addFatigueCounts(decisions, add))).toEqual(want);
  });
});

describe("§10 one run's experiment counts", () => {
  const requestsMeter = (used: number, limit: number, reserve: number) => ({
    requests: { used, limit, reserve, usable: limit - reserve, ratio: 0, stage: 1 },
  });

  it("ratio numerators and denominators with their squares and product, shares and means", () => {
    const decisions = run(
      [
        t(1, [r("requests", "delivered", { bytes: 50 }), r("review", "dropped")], {
          meters: { ...requestsMeter(5, 10, 2), time: { elapsedMs: 100, limitMs: 1000, ratio: 0.1, stage: 0 } },
        }),
        t(2, [r("requests", "delivered", { bytes: 50 }), r("review", "delivered", { bytes: 20 })], { meters: requestsMeter(7, 10, 2) }),
        t(3, [r("requests", "failed")], { meters: requestsMeter(9, 10, 2) }),
        t(4),
      ],
      3,
    );
    // finalize at 4: requests at 1 (t+3), 2 and 3 followed; review never (no check_evidence).
    const counts = experimentRunCounts({ decisions, actions: actionsByTurn([act(4, "finalize")]), endedStatus: "completed" });
    expect(counts).toEqual({
      runs: 1,
      // requests: 3 reminders of any status, all followed → due 3/3; delivered 2/2; dropped 0 of 3 decided.
      "due.requests.x": 3,
      "due.requests.y": 3,
      "due.requests.xx": 9,
      "due.requests.yy": 9,
      "due.requests.xy": 9,
      "followUp.requests.x": 2,
      "followUp.requests.y": 2,
      "followUp.requests.xx": 4,
      "followUp.requests.yy": 4,
      "followUp.requests.xy": 4,
      "drop.requests.y": 3,
      "drop.requests.yy": 9,
      // review: 2 reminders, none followed; 1 delivered; 1 dropped of 2.
      "due.review.y": 2,
      "due.review.yy": 4,
      "followUp.review.y": 1,
      "followUp.review.yy": 1,
      "drop.review.x": 1,
      "drop.review.y": 2,
      "drop.review.xx": 1,
      "drop.review.yy": 4,
      "drop.review.xy": 2,
      // 120 delivered bytes over 4 turns; 3 findings over 4 turns.
      "bytesPerTurn.x": 120,
      "bytesPerTurn.y": 4,
      "bytesPerTurn.xx": 14400,
      "bytesPerTurn.yy": 16,
      "bytesPerTurn.xy": 480,
      "findingsPerTurn.x": 3,
      "findingsPerTurn.y": 4,
      "findingsPerTurn.xx": 9,
      "findingsPerTurn.yy": 16,
      "findingsPerTurn.xy": 12,
      finished: 1,
      // Last requests meter at turn 3: 10 − 2 − 9 = −1 left, so out of requests.
      "outOfRequests.n": 1,
      "outOfRequests.x": 1,
      "requestsLeft.n": 1,
      "requestsLeft.sum": -1,
      "requestsLeft.sumSq": 1,
      // Last time meter at turn 1: 900 ms left.
      "outOfTime.n": 1,
      "timeLeftMs.n": 1,
      "timeLeftMs.sum": 900,
      "timeLeftMs.sumSq": 810000,
    });
  });

  it("a holdout's due reminders of the experiment's key come from the rebuild with them on", () => {
    // The run's own decisions: requests reminders off (none), a delivered review suggestion.
    const decisions = run([t(1, [r("review", "delivered")]), t(2, [], { meters: requestsMeter(8, 10, 2) })]);
    // With requests on: notices at 1 (followed by the finalize at 2) and 2 (finalize at 2 is t itself: not followed).
    const dueDecisions = run([t(1, [r("requests", "delivered"), r("review", "delivered")]), t(2, [r("requests", "dropped")])]);
    const counts = experimentRunCounts({
      decisions,
      actions: actionsByTurn([act(2, "finalize"), act(2, "check_evidence")]),
      endedStatus: "failed",
      experimentKey: "requests",
      dueDecisions,
    });
    expect(counts).toEqual({
      runs: 1,
      "due.requests.x": 1,
      "due.requests.y": 2,
      "due.requests.xx": 1,
      "due.requests.yy": 4,
      "due.requests.xy": 2,
      // review from the run's own decisions: delivered and followed.
      "due.review.x": 1,
      "due.review.y": 1,
      "due.review.xx": 1,
      "due.review.yy": 1,
      "due.review.xy": 1,
      "followUp.review.x": 1,
      "followUp.review.y": 1,
      "followUp.review.xx": 1,
      "followUp.review.yy": 1,
      "followUp.review.xy": 1,
      "drop.review.y": 1,
      "drop.review.yy": 1,
      "bytesPerTurn.x": 10,
      "bytesPerTurn.y": 2,
      "bytesPerTurn.xx": 100,
      "bytesPerTurn.yy": 4,
      "bytesPerTurn.xy": 20,
      "findingsPerTurn.y": 2,
      "findingsPerTurn.yy": 4,
      // 10 − 2 − 8 = 0 left: out of requests (used >= limit − reserve); not finished.
      "outOfRequests.n": 1,
      "outOfRequests.x": 1,
      "requestsLeft.n": 1,
    });
  });

  it("duePolicyOf takes away only a remind: false", () => {
    const policy = { requests: { limit: 10, deliveryReserve: 0, stages: [0.5], remind: false }, time: { limitMs: 5, stages: [0.5] } };
    expect(duePolicyOf(policy as TPolicy, "requests")).toEqual({
      requests: { limit: 10, deliveryReserve: 0, stages: [0.5] },
      time: { limitMs: 5, stages: [0.5] },
    });
    expect(duePolicyOf(policy as TPolicy, "time")).toBeNull();
    expect(duePolicyOf(policy as TPolicy, "context")).toBeNull();
  });
});
