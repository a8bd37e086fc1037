import { describe, expect, it } from "vitest";
import { ZPolicy } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { run } from "@/lib/core/spec/builders";
import { CHECK_LEAD_TURNS, projectionCheck } from "./projection-check";

/** 100 requests, nothing reserved: stage 1 at 50 used, stage 2 at 75, stage 3 at 90, the limit at 100 (R2). */
const requestsOnly = { requests: { limit: 100, deliveryReserve: 0, stages: [0.5, 0.75, 0.9] } };

function turnsOf(policy: object, usedAt: (turn: number) => number, count: number) {
  const builder = run({ policy });
  for (let turn = 0; turn < count; turn++) builder.turn(turn, (t) => t.requests(usedAt(turn)).final(10).ok());
  return { turns: rebuild(builder.events()).turns, policy: ZPolicy.parse(policy) };
}

describe("projectionCheck (worked by hand)", () => {
  it("checks against the turn 30 turns before: a steady 2 requests a turn is projected to the turn", () => {
    expect(CHECK_LEAD_TURNS).toBe(30);
    // used = 2t: stage 1 at turn 25 (too early to check: no turn 30 before it), stage 2 at turn 38 (76),
    // stage 3 at 45 (90), the limit at 50 (100). Made at turns 8, 15, 20 (used 16, 30, 40), at exactly 2 a turn:
    // 16 + 2 × 29.5 → turn 37.5 → 38; 30 + 2 × 30 = 90 at turn 45; 40 + 2 × 30 = 100 at turn 50.
    const { turns, policy } = turnsOf(requestsOnly, (t) => 2 * t, 60);
    const check = projectionCheck(turns, policy);
    expect(check.checks).toEqual([
      {
        meter: "requests",
        stage: 2,
        value: 75,
        reachedTurn: 38,
        madeAtTurn: 8,
        turn: 38,
        turnLow: 38,
        turnHigh: 38,
        offBy: 0,
        inside: true,
      },
      {
        meter: "requests",
        stage: 3,
        value: 90,
        reachedTurn: 45,
        madeAtTurn: 15,
        turn: 45,
        turnLow: 45,
        turnHigh: 45,
        offBy: 0,
        inside: true,
      },
      {
        meter: "requests",
        stage: null,
        value: 100,
        reachedTurn: 50,
        madeAtTurn: 20,
        turn: 50,
        turnLow: 50,
        turnHigh: 50,
        offBy: 0,
        inside: true,
      },
    ]);
    expect(check).toMatchObject({ leadTurns: 30, inside: 3 });
  });

  it("says how late the projection was when the run sped up: 1 request a turn to turn 39, then 3", () => {
    // used = t up to turn 39, then 39 + 3(t − 39): stage 1 (50) at turn 43 (51 used), stage 2 (75) at 51,
    // stage 3 (90) at 56, the limit (100) at 60 (102). Projected at 1 a turn from turns 13, 21, 26, 30:
    // turns 50, 75, 90, 100 — 7, 24, 34 and 40 turns late, none inside the (exact, 1-a-turn) interval.
    const used = (t: number) => (t <= 39 ? t : 39 + 3 * (t - 39));
    const { turns, policy } = turnsOf(requestsOnly, used, 62);
    const check = projectionCheck(turns, policy);
    expect(check.checks.map((c) => [c.stage, c.reachedTurn, c.madeAtTurn, c.turn, c.offBy, c.inside])).toEqual([
      [1, 43, 13, 50, 7, false],
      [2, 51, 21, 75, 24, false],
      [3, 56, 26, 90, 34, false],
      [null, 60, 30, 100, 40, false],
    ]);
    expect(check.inside).toBe(0);
  });

  it("checks each stage once: a stage reached again after the meter fell back is not checked twice", () => {
    // The context meter: 100 bytes a turn toward 10,000 (stage 1 at 5,000); compaction-like fall at turn 60.
    const policy = { context: { capacityBytes: 10_000, stages: [0.5] } };
    const builder = run({ policy });
    const bytes = (t: number) => (t < 60 ? 100 * t : 100 * (t - 55));
    for (let turn = 0; turn < 120; turn++) builder.turn(turn, (t) => t.final(bytes(turn)).ok());
    const check = projectionCheck(rebuild(builder.events()).turns, ZPolicy.parse(policy));
    // Stage 1 first at turn 50 (5,000 bytes), made at turn 20 (2,000 bytes, 100 a turn → turn 50); reached
    // again at turn 105 (100 × 50), not checked again. The capacity is never reached: 6,400 bytes at turn 119.
    expect(check.checks).toEqual([
      {
        meter: "context",
        stage: 1,
        value: 5_000,
        reachedTurn: 50,
        madeAtTurn: 20,
        turn: 50,
        turnLow: 50,
        turnHigh: 50,
        offBy: 0,
        inside: true,
      },
    ]);
  });

  it("has no check for a stage reached within the lead, or a run without a projected meter", () => {
    const { turns, policy } = turnsOf(requestsOnly, (t) => 10 * t, 12);
    // Stage 1 at turn 5: no turn 30 before it; every target comes within 30 turns of the start.
    expect(projectionCheck(turns, policy)).toEqual({ leadTurns: 30, checks: [], inside: 0 });
    expect(projectionCheck(turns, ZPolicy.parse({}))).toEqual({ leadTurns: 30, checks: [], inside: 0 });
  });

  it("a jump over two stages reaches both at that turn, each checked against its own value", () => {
    // 1 a turn, then at turn 40 a jump from 39 to 80 (stages 1 and 2 at once), then 1 a turn.
    const used = (t: number) => (t < 40 ? t : 40 + t);
    const { turns, policy } = turnsOf(requestsOnly, used, 52);
    const check = projectionCheck(turns, policy);
    // Made at turn 10 (10 used, 1 a turn): stage 1 (50) projected at 50, stage 2 (75) at 75; reached at 40.
    // Stage 3 (90) at turn 50 (40 + 50), made at turn 20 from turns 0–20 at 1 a turn: 20 + 70 → turn 90.
    // The limit (100) is not reached by the last turn, 51 (91 used).
    expect(check.checks.map((c) => [c.stage, c.value, c.reachedTurn, c.madeAtTurn, c.turn, c.offBy])).toEqual([
      [1, 50, 40, 10, 50, 10],
      [2, 75, 40, 10, 75, 35],
      [3, 90, 50, 20, 90, 40],
    ]);
  });
});
