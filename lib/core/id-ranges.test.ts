import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromIdRanges, IdSet, toIdRanges } from "./id-ranges";

describe("id ranges", () => {
  it.each([
    { ids: [], ranges: [] },
    { ids: ["rc-003", "rc-001", "rc-002", "rc-005"], ranges: [["rc-", 3, 1, 3], "rc-005"] },
    { ids: ["rd-9", "rd-10", "rd-11"], ranges: ["rd-9", ["rd-", 2, 10, 11]] },
    { ids: ["x", "rd-010-retry", "7", "8"], ranges: [["", 1, 7, 8], "rd-010-retry", "x"] },
    { ids: ["a0009", "a0010"], ranges: [["a", 4, 9, 10]] },
  ])("$ids → $ranges", ({ ids, ranges }) => {
    expect(toIdRanges(ids)).toEqual(ranges);
    expect(new Set(fromIdRanges(toIdRanges(ids)))).toEqual(new Set(ids));
  });

  it("holds exactly the ids it was made of", () => {
    const id = fc.oneof(
      fc.string(),
      fc
        .tuple(fc.constantFrom("", "c-", "c-1", "é"), fc.nat({ max: 30 }), fc.nat({ max: 4 }))
        .map(([stem, n, pad]) => stem + "0".repeat(pad) + n),
      fc.stringMatching(/^[a-z]\d{14,20}$/),
    );
    fc.assert(
      fc.property(fc.uniqueArray(id), (ids) => {
        const back = fromIdRanges(toIdRanges(ids));
        expect(back.length).toBe(ids.length);
        expect(new Set(back)).toEqual(new Set(ids));
      }),
      { numRuns: 500 },
    );
  });

  it("an IdSet answers as a Set of the same ids, and goes through its ranges unchanged", () => {
    const id = fc.oneof(
      fc.constantFrom("x", "rd-010-retry", "", "9"),
      fc
        .tuple(fc.constantFrom("rc-", "rd-", ""), fc.nat({ max: 40 }), fc.constantFrom(1, 2, 3))
        .map(([stem, n, width]) => stem + String(n).padStart(width, "0")),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), id), { maxLength: 120 }), (steps) => {
        const set = new IdSet();
        const plain = new Set<string>();
        for (const [adding, x] of steps) {
          if (adding) {
            set.add(x);
            plain.add(x);
          } else expect(set.has(x)).toBe(plain.has(x));
        }
        expect(set.toRanges()).toEqual(toIdRanges(plain));
        expect(new Set(fromIdRanges(set.toRanges()))).toEqual(plain);
        const back = IdSet.fromRanges(JSON.parse(JSON.stringify(set.toRanges())));
        expect(back.toRanges()).toEqual(set.toRanges());
        for (const [, x] of steps) expect(back.has(x)).toBe(plain.has(x));
      }),
      { numRuns: 500 },
    );
  });
});
