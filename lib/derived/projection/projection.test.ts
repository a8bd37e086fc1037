import { describe, expect, it } from "vitest";
import { ZPolicy } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { run } from "@/lib/core/spec/builders";
import { PROJECTION_TURNS, runProjection } from "./projection";

const policy = {
  requests: { limit: 100, deliveryReserve: 0, stages: [0.5, 0.75, 0.9] },
  time: { limitMs: 3_600_000, stages: [0.5, 0.9] },
  context: { capacityBytes: 10_000, stages: [0.7, 0.9] },
};

/** 40 turns: 2 requests a turn, 30 s a turn, a request of a steady 1,000 bytes. */
function steady() {
  const builder = run({ policy });
  for (let turn = 0; turn < 40; turn++)
    builder.turn(turn, (t) =>
      t
        .requests(2 * turn)
        .time(30_000 * turn)
        .final(1_000)
        .ok(),
    );
  return rebuild(builder.events()).turns;
}

describe("runProjection (worked by hand)", () => {
  const projection = runProjection(steady(), ZPolicy.parse(policy))!;
  const meter = (name: string) => projection.meters.find((m) => m.meter === name)!;

  it("fits each meter's pace over the last turns", () => {
    expect(meter("requests")).toMatchObject({
      fromTurn: 40 - PROJECTION_TURNS,
      toTurn: 39,
      points: PROJECTION_TURNS,
      perTurn: 2,
      perTurnLow: 2,
      perTurnHigh: 2,
      value: 78,
    });
    expect(meter("time")).toMatchObject({ perTurn: 0.5, value: 19.5, unit: "min" });
  });

  it("requests: at 78 of 100 (stage 2), stage 3 (90) is 12 requests away: turn 45; the limit (100) turn 50; the clock then reads 22.5 and 25 min", () => {
    expect(meter("requests").nextStage).toEqual({
      value: 90,
      stage: 3,
      turn: 45,
      turnLow: 45,
      turnHigh: 45,
      minute: 22.5,
      minuteLow: 22.5,
      minuteHigh: 22.5,
    });
    expect(meter("requests").limit).toMatchObject({ value: 100, stage: null, turn: 50, minute: 25 });
  });

  it("time: at 19.5 of 60 min, stage 1 (30 min) at turn 60 and the limit at turn 120, at exactly those minutes", () => {
    expect(meter("time").nextStage).toMatchObject({ value: 30, stage: 1, turn: 60, minute: 30 });
    expect(meter("time").limit).toMatchObject({ value: 60, turn: 120, minute: 60 });
  });

  it("context: a steady request never reaches its next stage or the capacity at this pace", () => {
    expect(meter("context").nextStage).toMatchObject({ value: 7_000, stage: 1, turn: null, turnLow: null, turnHigh: null, minute: null });
    expect(meter("context").limit.turn).toBeNull();
  });

  it("names the meter whose limit comes first", () => {
    expect(projection.first).toEqual({ meter: "requests", turn: 50 });
  });
});

describe("runProjection's robustness and interval", () => {
  it("is not thrown by one burst of retries, and widens its interval with uneven paces", () => {
    const builder = run({ policy: { requests: policy.requests } });
    let used = 0;
    for (let turn = 0; turn < 30; turn++) {
      used += turn === 20 ? 15 : turn % 2 ? 1 : 2; // 1.5 a turn on average, 15 at once on turn 20
      builder.turn(turn, (t) => t.requests(used).final(10).ok());
    }
    const requests = runProjection(rebuild(builder.events()).turns, ZPolicy.parse({ requests: policy.requests }))!.meters[0];
    expect(requests.perTurn).toBeGreaterThanOrEqual(1.4);
    expect(requests.perTurn).toBeLessThan(2);
    expect(requests.perTurnLow).toBeLessThan(requests.perTurn);
    expect(requests.perTurnHigh).toBeGreaterThan(requests.perTurn);
    const { turn, turnLow, turnHigh } = requests.limit;
    expect(turnLow!).toBeLessThan(turn!);
    expect(turnHigh!).toBeGreaterThan(turn!);
  });

  it("has nothing to say about a run without turns, or with too few readings", () => {
    expect(runProjection([], ZPolicy.parse(policy))).toBeNull();
    const two = run({ policy })
      .turn(0, (t) => t.requests(1).final(1).ok())
      .turn(1, (t) => t.requests(2).final(1).ok());
    expect(runProjection(rebuild(two.events()).turns, ZPolicy.parse(policy))!.meters).toEqual([]);
  });
});
