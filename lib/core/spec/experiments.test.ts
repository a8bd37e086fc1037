/** Contract §10: the telemetry additions (`remind: false`, `experiment`) and assignment. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ZEvent, type TPolicyInput } from "@/lib/contracts";
import { assignArm, assignmentPosition } from "@/lib/core/experiment-assignment";
import { rebuild } from "@/lib/core/index";
import { CTX, EDITS, json, REQ, run, shortReminders, turnOf } from "./builders";

describe("§10 remind: false (a holdout)", () => {
  const on = {
    requests: REQ,
    time: { limitMs: 1_800_000, stages: [0.5] },
    context: CTX,
    edits: EDITS,
    review: { everyTurns: 1 },
  };
  // Turn 1 puts every meter at stage 1: 18 of 36 usable requests, 900,000 of 1,800,000 ms,
  // 7,000 of 10,000 bytes, 2 of 4 edits on block b1, review checkpoint floor(1 / 1) = 1 (R2, R7).
  const all = ["requests s1 delivered", "time s1 delivered", "context s1 delivered", "edits/b1 s1 delivered", "review s1 delivered"];

  it.each([
    { off: "requests", gone: "requests s1 delivered" },
    { off: "time", gone: "time s1 delivered" },
    { off: "context", gone: "context s1 delivered" },
    { off: "edits", gone: "edits/b1 s1 delivered" },
    { off: "review", gone: "review s1 delivered" },
  ] as const)("$off off: its reminders are gone, every other key's stay", ({ off, gone }) => {
    const policy = { ...on, [off]: { ...on[off], remind: false } } as TPolicyInput;
    const d = json(
      rebuild(
        run({ policy })
          .turn(1, (t) => t.requests(18).time(900_000).block("b1", 2).final(7000).ok())
          .events(),
      ),
    );
    expect(shortReminders(d, 1)).toEqual(all.filter((r) => r !== gone));
    // The meter is still measured in its own unit, at its stage.
    const meters = turnOf(d, 1).meters;
    if (off === "edits") expect(meters.edits?.[0]).toMatchObject({ blockId: "b1", used: 2, limit: 4, stage: 1 });
    else if (off !== "review") expect(meters[off]).toMatchObject({ stage: 1 });
  });

  it("remind: true and an absent remind decide the same", () => {
    const events = (remind?: boolean) =>
      run({ policy: { requests: remind === undefined ? REQ : { ...REQ, remind } } })
        .turn(1, (t) => t.requests(18).final(10).ok())
        .turn(2, (t) => t.requests(30).final(10).ok())
        .events();
    expect(json(rebuild(events(true))).turns).toEqual(json(rebuild(events())).turns);
  });
});

describe("§10 run.started experiment", () => {
  const envelope = { id: "e1", runId: "r1", ts: "2026-12-03T10:00:00.000Z", type: "run.started" };
  it("is optional, and kept when sent", () => {
    expect(ZEvent.parse({ ...envelope, body: { task: "t", policy: {} } }).body).not.toHaveProperty("experiment");
    const parsed = ZEvent.parse({ ...envelope, body: { task: "t", policy: {}, experiment: { id: "exp_1", arm: "B" } } });
    expect(parsed.body).toMatchObject({ experiment: { id: "exp_1", arm: "B" } });
  });
});

/** The contract's own procedure, written again with Node's SHA-256 (an independent implementation). */
function contractArm(experimentId: string, runId: string, weights: number[]): number {
  const u = createHash("sha256").update(`${experimentId}:${runId}`, "utf8").digest().readBigUInt64BE(0);
  const total = weights.reduce((a, b) => a + b, 0);
  const x = (u * BigInt(total)) >> BigInt(64);
  let cumulative = 0;
  return weights.findIndex((w) => x < BigInt((cumulative += w)));
}

describe("§10 assignment", () => {
  const arms = (weights: number[]) => weights.map((weight, i) => ({ name: `arm${i}`, weight }));

  // The contract's example (docs/contract/experiments.md#assignment), computed with Python's hashlib.
  it.each([
    { runId: "run-0001", weights: [1, 1, 1], x: 0, arm: "arm0" },
    { runId: "run-0002", weights: [1, 1, 1], x: 1, arm: "arm1" },
    { runId: "run-0003", weights: [1, 1, 1], x: 2, arm: "arm2" },
    { runId: "run-0004", weights: [1, 1, 1], x: 0, arm: "arm0" },
    { runId: "run-0005", weights: [1, 1, 1], x: 2, arm: "arm2" },
    { runId: "run-0001", weights: [50, 50], x: 1, arm: "arm0" },
    { runId: "run-0002", weights: [50, 50], x: 55, arm: "arm1" },
    { runId: "run-0003", weights: [50, 50], x: 87, arm: "arm1" },
    { runId: "run-0004", weights: [50, 50], x: 11, arm: "arm0" },
    { runId: "run-0005", weights: [50, 50], x: 71, arm: "arm1" },
  ])("exp_requests_copy, $runId, weights $weights → x = $x, $arm", ({ runId, weights, x, arm }) => {
    const total = weights.reduce((a, b) => a + b, 0);
    expect(assignmentPosition("exp_requests_copy", runId, total)).toBe(x);
    expect(assignArm("exp_requests_copy", runId, arms(weights)).name).toBe(arm);
  });

  it("agrees with the contract's procedure on 2,000 ids, non-ASCII ones included", () => {
    const weights = [3, 0, 5, 2];
    for (let i = 0; i < 2000; i++) {
      const runId = i % 3 === 0 ? `läuft-${i}-🚀` : `run-${i}`;
      expect(assignArm("exp-ünï", runId, arms(weights)).name).toBe(`arm${contractArm("exp-ünï", runId, weights)}`);
    }
  });

  it("splits runs in proportion to the weights and never picks a weight-0 arm", () => {
    const weights = [1, 0, 2, 7];
    const counts = [0, 0, 0, 0];
    const n = 20_000;
    for (let i = 0; i < n; i++) counts[Number(assignArm("exp", `r${i}`, arms(weights)).name.slice(3))]++;
    expect(counts[1]).toBe(0);
    for (const [i, w] of weights.entries()) {
      const p = w / 10;
      // within 4 binomial standard errors of the expected share (deterministic: the ids are fixed)
      expect(Math.abs(counts[i] / n - p)).toBeLessThanOrEqual(4 * Math.sqrt((p * (1 - p)) / n) + 1e-12);
    }
  });

  it.each([
    { weights: [0, 0], message: /positive integer/ },
    { weights: [1, -1], message: /integer >= 0/ },
    { weights: [0.5, 1], message: /integer >= 0/ },
  ])("refuses weights $weights", ({ weights, message }) => {
    expect(() => assignArm("e", "r", arms(weights))).toThrow(message);
  });
});
