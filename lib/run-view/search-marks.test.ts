import { describe, expect, it } from "vitest";
import type { TRunSearch, TSearchMatch, TSearchTerm } from "@/lib/contracts";
import { describeMatch, searchMarks, searchSummary, stepMatch } from "./search-marks";

const terms: TSearchTerm[] = [
  { kind: "text", term: "# requests left", turns: 3 },
  { kind: "finding", term: "MISSING_REMINDER", turns: 1 },
  { kind: "action", term: "tool_call", turns: 1 },
];
const match = (turn: number, ...t: number[]): TSearchMatch => ({ turn, terms: t.length ? t : [0] });

function answer(extra: Partial<TRunSearch>): TRunSearch {
  return {
    runId: "r",
    q: "x",
    kind: null,
    indexed: true,
    terms,
    termsTruncated: false,
    total: 0,
    matches: [],
    truncated: false,
    ...extra,
  };
}

describe("searchSummary", () => {
  it.each([
    {
      name: "not indexed",
      a: answer({ indexed: false }),
      want: "This run's search index is being built with its rebuild; search again in a moment.",
    },
    { name: "none", a: answer({ total: 0 }), want: "No turn matches." },
    { name: "none of a kind", a: answer({ total: 0, kind: "block" }), want: "No turn matches as block." },
    { name: "one", a: answer({ total: 1, matches: [match(3)] }), want: "1 turn matches" },
    { name: "some", a: answer({ total: 12, matches: Array.from({ length: 12 }, (_, i) => match(i)) }), want: "12 turns match" },
    {
      name: "capped",
      a: answer({ total: 1234, truncated: true, matches: Array.from({ length: 500 }, (_, i) => match(i)) }),
      want: "1,234 turns match · showing first 500",
    },
    {
      name: "too many terms",
      a: answer({ total: 2, termsTruncated: true, matches: [match(1), match(2)] }),
      want: "2 turns match · more than 100 different terms match: search for more of the words",
    },
  ])("$name", ({ a, want }) => {
    expect(searchSummary(a)).toBe(want);
  });
});

describe("describeMatch", () => {
  it("names the turn's terms, two at most, and counts the rest", () => {
    expect(describeMatch(match(1204, 0), terms)).toBe("turn 1,204: reminder text “# requests left”");
    expect(describeMatch(match(7, 0, 1, 2), terms)).toBe("turn 7: reminder text “# requests left”, finding “MISSING_REMINDER” and 1 more");
  });
});

describe("searchMarks", () => {
  it("places one mark per matching turn inside the window, titled with what matched", () => {
    expect(searchMarks([match(10, 2), match(50, 1), match(150)], terms, { from: 0, to: 100 })).toEqual([
      { turn: 10, toTurn: 10, count: 1, x: 0.1, title: "turn 10: action “tool_call”" },
      { turn: 50, toTurn: 50, count: 1, x: 0.5, title: "turn 50: finding “MISSING_REMINDER”" },
    ]);
  });

  it("folds turns closer than the gap into one mark that selects the first; zoomed in they are apart", () => {
    const matches = [match(1000), match(1003), match(1050), match(5000)];
    expect(searchMarks(matches, terms, { from: 0, to: 10_000 }).map((m) => [m.turn, m.toTurn, m.count, m.title])).toEqual([
      [1000, 1050, 3, "turns 1,000–1,050: 3 matching turns (the first selected)"],
      [5000, 5000, 1, "turn 5,000: reminder text “# requests left”"],
    ]);
    expect(searchMarks(matches, terms, { from: 990, to: 1060 }).map((m) => m.turn)).toEqual([1000, 1003, 1050]);
  });
});

describe("stepMatch", () => {
  const matches = [match(4), match(9), match(20)];
  it.each([
    { from: null, direction: "next", want: 4 },
    { from: null, direction: "previous", want: 20 },
    { from: 4, direction: "next", want: 9 },
    { from: 5, direction: "next", want: 9 },
    { from: 9, direction: "previous", want: 4 },
    { from: 20, direction: "next", want: null },
    { from: 4, direction: "previous", want: null },
    { from: 100, direction: "previous", want: 20 },
  ] as const)("from $from, $direction: $want", ({ from, direction, want }) => {
    expect(stepMatch(matches, from, direction)).toBe(want);
  });

  it("finds nothing without matches", () => {
    expect(stepMatch([], null, "next")).toBeNull();
  });
});
