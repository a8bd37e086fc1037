import { describe, expect, it } from "vitest";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { batchesByTurns } from "./scale-runs";

describe("batchesByTurns", () => {
  const { events } = generateEtfRun({ runId: "batches", seed: 3, turns: 35 });
  const turnsOf = (batch: typeof events) => [...new Set(batch.flatMap((e) => (typeof e.turn === "number" ? [e.turn] : [])))];

  it.each([
    [10, 4],
    [1, 35],
    [35, 1],
    [100, 1],
  ])("%d turns a batch: %d batches, in order, nothing lost or repeated", (turns, count) => {
    const batches = batchesByTurns(events, turns);
    expect(batches).toHaveLength(count);
    expect(batches.flat()).toEqual(events);
    for (const batch of batches) {
      const seen = turnsOf(batch);
      expect(Math.max(...seen) - Math.min(...seen)).toBeLessThan(turns);
    }
  });

  it("keeps events without a turn with their neighbours (run.started opens the first batch)", () => {
    const [first] = batchesByTurns(events, 10);
    expect(first[0].type).toBe("run.started");
    expect(turnsOf(first)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("gives no batch for no events", () => {
    expect(batchesByTurns([], 10)).toEqual([]);
  });
});
