import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { downsample } from "./downsample";

type P = { turn: number; value: number; stage: number };
const series = (values: number[], stage = (_: number) => 0): P[] => values.map((value, turn) => ({ turn, value, stage: stage(value) }));
const turnsOf = (points: readonly P[]) => points.map((p) => p.turn);

describe("downsample", () => {
  it.each([
    ["empty", [], 4, []],
    ["shorter than the budget", [3, 1, 2], 4, [0, 1, 2]],
    ["exactly the budget", [3, 1, 2, 5], 4, [0, 1, 2, 3]],
    ["a flat run folds to its ends", Array(50).fill(7), 4, [0, 49]],
    ["folding is lossless, so it happens within the budget too", Array(50).fill(7), 100, [0, 49]],
    ["flat runs fold without loss", [...Array(20).fill(1), ...Array(20).fill(2)], 6, [0, 19, 20, 39]],
    ["one spike in a flat line survives", [...Array(30).fill(0), 99, ...Array(30).fill(0)], 6, [0, 29, 30, 31, 60]],
  ])("%s", (_, values, maxPoints, expected) => {
    expect(turnsOf(downsample(series(values), maxPoints))).toEqual(expected);
  });

  it("keeps the global extremes even with the smallest budget", () => {
    const values = Array.from({ length: 1000 }, (_, i) => Math.sin(i / 7) * 100 + (i === 613 ? 500 : 0) - (i === 222 ? 500 : 0));
    const kept = downsample(series(values), 4);
    expect(turnsOf(kept)).toEqual([0, 222, 613, 999]);
  });

  it("keeps each bucket's minimum and maximum (peaks survive)", () => {
    // A sawtooth with period 100; 4 fixed points + 10 buckets of 100: every peak (99, 199, …) and trough (0, 100, …) stays.
    const values = Array.from({ length: 1000 }, (_, i) => i % 100);
    const kept = turnsOf(downsample(series(values), 24));
    for (let k = 0; k < 10; k++) {
      expect(kept).toContain(k * 100);
      expect(kept).toContain(k * 100 + 99);
    }
    expect(kept.length).toBeLessThanOrEqual(24);
  });

  it("never drops a marker, exceeding the budget only by the markers", () => {
    const values = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 1000);
    const markers = new Set(Array.from({ length: 300 }, (_, i) => i * 16 + 3));
    const kept = downsample(series(values), 100, (p) => markers.has(p.turn));
    for (const turn of markers) expect(turnsOf(kept)).toContain(turn);
    expect(kept.length).toBeLessThanOrEqual(markers.size + 4);
  });

  it("returns the input objects, in order, and does not touch the input", () => {
    const points = series(Array.from({ length: 200 }, (_, i) => (i * 37) % 101));
    const copy = structuredClone(points);
    const kept = downsample(points, 20);
    expect(points).toEqual(copy);
    for (const point of kept) expect(points).toContain(point);
    expect(turnsOf(kept)).toEqual([...turnsOf(kept)].sort((a, b) => a - b));
  });

  it("treats a change in any field (a stage, a block's limit) as information", () => {
    const points = Array.from({ length: 100 }, (_, turn) => ({ turn, value: 1, stage: turn >= 40 ? 1 : 0 }));
    expect(turnsOf(downsample(points, 10))).toEqual([0, 39, 40, 99]);
  });

  it("holds its guarantees on any series (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 400 }),
        fc.integer({ min: 4, max: 60 }),
        fc.array(fc.nat(399), { maxLength: 30 }),
        (values, maxPoints, markerList) => {
          const points = series(values);
          const markers = new Set(markerList.filter((m) => m < values.length));
          const kept = downsample(points, maxPoints, (p) => markers.has(p.turn));
          const turns = turnsOf(kept);
          expect(turns).toEqual([...new Set(turns)].sort((a, b) => a - b));
          expect(kept.length).toBeLessThanOrEqual(Math.max(maxPoints, markers.size + 4));
          if (values.length === 0) return;
          for (const m of markers) expect(turns).toContain(m);
          expect(turns[0]).toBe(0);
          expect(turns.at(-1)).toBe(values.length - 1);
          expect(Math.max(...kept.map((p) => p.value))).toBe(Math.max(...values));
          expect(Math.min(...kept.map((p) => p.value))).toBe(Math.min(...values));
        },
      ),
      { seed: 42, numRuns: 300 },
    );
  });
});
