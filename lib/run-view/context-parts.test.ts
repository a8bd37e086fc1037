import { describe, expect, it } from "vitest";
import { compactionMarks, describeCompaction, partsBreakdown, stackRows, stackSlices } from "./context-parts";

describe("partsBreakdown (one request by part, contract §11)", () => {
  it.each([
    {
      name: "the contract's example: five parts and 100 bytes unattributed",
      required: 9962,
      parts: { system: 1480, tools: 2210, history: 5010, retrieved: 1020, reminders: 142 },
      expected: [
        ["system", 1480],
        ["tools", 2210],
        ["history", 5010],
        ["retrieved", 1020],
        ["reminders", 142],
        ["unattributed", 100],
      ],
    },
    {
      name: "parts that sum to the request: no unattributed rest",
      required: 30,
      parts: { other: 10, system: 20 },
      expected: [
        ["system", 20],
        ["other", 10],
      ],
    },
    { name: "no part sent: all unattributed", required: 50, parts: {}, expected: [["unattributed", 50]] },
    { name: "an empty request", required: 0, parts: { history: 0 }, expected: [["history", 0]] },
  ])("$name", ({ required, parts, expected }) => {
    const shares = partsBreakdown(required, parts);
    expect(shares.map((s) => [s.slice, s.bytes])).toEqual(expected);
    // Shares are of requiredBytes, worked out here by hand from the bytes.
    for (const s of shares) expect(s.share).toBe(required > 0 ? s.bytes / required : null);
  });
});

describe("the stacked rows", () => {
  const points = [
    { turn: 1, value: 100, system: 20, history: 70 },
    { turn: 2, value: 120, system: 20, history: 100 },
  ];

  it("stack every slice, 0 where a part was not sent, so each row sums to requiredBytes", () => {
    const slices = stackSlices(["system", "history"], points);
    expect(slices).toEqual(["system", "history", "unattributed"]);
    const rows = stackRows(points, slices);
    expect(rows).toEqual([
      { turn: 1, total: 100, system: 20, history: 70, unattributed: 10 },
      { turn: 2, total: 120, system: 20, history: 100, unattributed: 0 },
    ]);
    for (const row of rows) expect(row.system! + row.history! + row.unattributed!).toBe(row.total);
  });

  it("leave unattributed out when no point has a rest", () => {
    expect(stackSlices(["system", "history"], [points[1]])).toEqual(["system", "history"]);
  });
});

describe("compactions on the parts chart", () => {
  it("tell bytes before, the candidate, and the request measured after; a folded item has no after", () => {
    const marks = compactionMarks(
      [
        { turn: 2, originalBytes: 300, candidateBytes: 120, outcome: "adopted" },
        { turn: 9, originalBytes: 300, candidateBytes: 100, outcome: "rolled_back" },
        { turn: 10, toTurn: 40, count: 3, originalBytes: 900, candidateBytes: 80, outcome: "adopted" },
      ],
      [{ turn: 2, value: 120 }],
    );
    expect(marks.map((m) => m.afterBytes)).toEqual([120, null, null]);
    expect(describeCompaction(marks[0])).toBe("turn 2: compaction adopted: 300 B before, candidate 120 B, 120 B after");
    expect(describeCompaction(marks[1])).toBe("turn 9: compaction rolled back: 300 B before, candidate 100 B");
  });
});
