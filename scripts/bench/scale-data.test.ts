import { describe, expect, it } from "vitest";
import { runStart } from "./scale-data";

const DAY = 86_400_000;
const FIRST = Date.parse("2026-10-25T00:00:00.000Z");

describe("runStart", () => {
  it("puts every run on a 15-minute bound in the data set's first 4 days, run 0 first", () => {
    expect(runStart(0)).toBe(FIRST);
    for (let i = 0; i < 2_000; i++) {
      const t = runStart(i);
      expect(t % (15 * 60_000)).toBe(0);
      expect(t).toBeGreaterThanOrEqual(FIRST);
      expect(t).toBeLessThan(FIRST + 4 * DAY);
    }
  });

  it("spreads the runs of a small data set and of a large one over the same days", () => {
    const days = (runs: number) => new Set(Array.from({ length: runs }, (_, i) => Math.floor((runStart(i) - FIRST) / DAY)));
    // 5 runs (20k events), 41 (200k), 21 (100k) and 202 (1M) all start on each of the 4 days.
    for (const runs of [5, 21, 41, 202]) expect(days(runs).size, `${runs} runs`).toBe(4);
    // Evenly: no day of the large set holds more than twice its share.
    const perDay = new Map<number, number>();
    for (let i = 0; i < 202; i++) {
      const day = Math.floor((runStart(i) - FIRST) / DAY);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(Math.ceil((2 * 202) / 4));
  });
});
