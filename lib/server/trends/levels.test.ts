import { describe, expect, it } from "vitest";
import { levelTerms } from "./trends";

const QUARTER_MS = 15 * 60_000;
const DAY_MS = 96 * QUARTER_MS;
const BASE = Date.parse("2026-03-27T00:00:00Z");

/** How many times the terms count the quarter starting at `ms`. */
function coverage(terms: ReturnType<typeof levelTerms>, ms: number): number {
  return terms.reduce((sum, t) => sum + (ms >= t.ms && ms < t.ms + t.minutes * 60_000 ? t.coef : 0), 0);
}

describe("levelTerms", () => {
  it("counts every quarter of [start, end) once and no other, from spans aligned to their level", () => {
    for (const lengthQuarters of [0, 1, 5, 92, 94, 96, 98, 100, 2 * 96 + 7]) {
      for (let offset = 0; offset < 96; offset++) {
        const start = BASE + offset * QUARTER_MS;
        const end = start + lengthQuarters * QUARTER_MS;
        const terms = levelTerms(start, end);
        for (const t of terms) {
          expect([15, 60, 360, 1440]).toContain(t.minutes);
          expect(t.ms % (t.minutes * 60_000)).toBe(0);
          expect(t.coef).not.toBe(0);
        }
        for (let ms = start - DAY_MS; ms < end + DAY_MS; ms += QUARTER_MS) {
          expect(coverage(terms, ms), JSON.stringify({ offset, lengthQuarters, ms })).toBe(ms >= start && ms < end ? 1 : 0);
        }
      }
    }
  });

  it("reads a zone's day from a few spans whatever its offset (at most 15 for a 23–25 hour day, against 92–100 quarters)", () => {
    let most = 0;
    for (const lengthQuarters of [92, 94, 96, 98, 100]) {
      for (let offset = 0; offset < 96; offset++) {
        const start = BASE + offset * QUARTER_MS;
        most = Math.max(most, levelTerms(start, start + lengthQuarters * QUARTER_MS).length);
      }
    }
    expect(most).toBeLessThanOrEqual(15);
    // UTC: the day; Europe/Paris in winter (+01:00): an hour, the day, less an hour; Asia/Kathmandu (+05:45).
    expect(levelTerms(BASE, BASE + DAY_MS)).toEqual([{ minutes: 1440, ms: BASE, coef: 1 }]);
    expect(levelTerms(BASE - 4 * QUARTER_MS, BASE + DAY_MS - 4 * QUARTER_MS)).toHaveLength(3);
    expect(levelTerms(BASE - 23 * QUARTER_MS, BASE + DAY_MS - 23 * QUARTER_MS).length).toBeLessThanOrEqual(5);
  });

  it("works before 1970 and at the calendar's ends", () => {
    const early = Date.parse("0001-01-01T00:00:00Z");
    const terms = levelTerms(early - 9 * 4 * QUARTER_MS, early + 15 * 4 * QUARTER_MS);
    for (let ms = early - 2 * DAY_MS; ms < early + 2 * DAY_MS; ms += QUARTER_MS) {
      expect(coverage(terms, ms)).toBe(ms >= early - 36 * QUARTER_MS && ms < early + 60 * QUARTER_MS ? 1 : 0);
    }
  });
});
