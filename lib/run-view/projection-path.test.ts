import { describe, expect, it } from "vitest";
import type { TMeterProjection, TRunProjection } from "@/lib/contracts";
import { projectionHorizon, projectionPath } from "./projection-path";

const reach = { value: 100, stage: null, turn: null, turnLow: null, turnHigh: null, minute: null, minuteLow: null, minuteHigh: null };

function meter(over: Partial<TMeterProjection>): TMeterProjection {
  return {
    meter: "requests",
    unit: "requests",
    fromTurn: 70,
    toTurn: 99,
    points: 30,
    perTurn: 1,
    perTurnLow: 0.5,
    perTurnHigh: 2,
    value: 60,
    nextStage: null,
    limit: reach,
    ...over,
  };
}

const projection = (first: TRunProjection["first"], lastTurn = 99): TRunProjection => ({ lastTurn, meters: [meter({})], first });

describe("projectionHorizon", () => {
  it.each([
    // [first limit turn, run extent, horizon]: ahead = the first limit, between 30 turns and half the run's turns.
    ["the first limit, 40 turns ahead", { meter: "requests", turn: 139 } as const, [0, 99] as const, 139],
    ["at least 30 turns ahead, when the limit is nearer", { meter: "requests", turn: 104 } as const, [0, 99] as const, 129],
    ["at most half the run's 100 turns", { meter: "requests", turn: 1_000 } as const, [0, 99] as const, 149],
    ["30 turns for a short run whose half is less", { meter: "requests", turn: 1_000 } as const, [90, 99] as const, 129],
    ["half the run when no limit is reached at this pace", null, [0, 99] as const, 149],
  ])("%s", (_, first, extent, horizon) => {
    expect(projectionHorizon(projection(first), extent)).toBe(horizon);
  });

  it("is null without a projection or a projected meter", () => {
    expect(projectionHorizon(null, [0, 10])).toBeNull();
    expect(projectionHorizon({ lastTurn: 10, meters: [], first: null }, [0, 10])).toBeNull();
  });
});

describe("projectionPath", () => {
  it("runs from the last reading at the fitted pace, the band between the slowest and fastest pace", () => {
    // 60 now at turn 99, limit 100: fitted 1 a turn meets it at turn 139, the fastest (2) at 119, the slowest (0.5) at 179.
    const path = projectionPath(meter({}), 129, 100);
    expect(path[0]).toEqual({ turn: 99, projected: 60, band: [60, 60] });
    const at = (turn: number) => path.find((p) => p.turn === turn);
    expect(at(119)).toEqual({ turn: 119, projected: 80, band: [70, 100] }); // the fastest meets the limit here
    expect(at(129)).toEqual({ turn: 129, projected: 90, band: [75, 100] }); // held at the limit after
    expect(path.at(-1)!.turn).toBe(129);
    expect(path.every((p, i) => i === 0 || p.turn > path[i - 1].turn)).toBe(true);
  });

  it("ends the fitted line where it reaches the limit", () => {
    const path = projectionPath(meter({}), 149, 100);
    expect(path.find((p) => p.turn === 139)).toMatchObject({ projected: 100 });
    expect(path.filter((p) => p.turn > 139).every((p) => p.projected === null)).toBe(true);
    expect(path.filter((p) => p.turn > 139).every((p) => p.band[1] === 100)).toBe(true);
  });

  it("draws a falling pace falling, and nothing for a meter at its limit or a horizon not ahead", () => {
    const falling = projectionPath(meter({ perTurn: -1, perTurnLow: -2, perTurnHigh: 0 }), 109, 100);
    expect(falling.at(-1)).toEqual({ turn: 109, projected: 50, band: [40, 60] });
    expect(projectionPath(meter({ value: 100 }), 129, 100)).toEqual([]);
    expect(projectionPath(meter({}), 99, 100)).toEqual([]);
  });
});
