import { describe, expect, it } from "vitest";
import { collectMatches, foldQuery, termMatches, type TermHit } from "./search-match";
import { emptyMask, maskText, setTurn } from "./turn-mask";

function mask(...turns: number[]): string {
  const bits = emptyMask();
  for (const turn of turns) setTurn(bits, turn);
  return maskText(bits);
}

describe("termMatches", () => {
  it.each([
    { kind: "text", folded: "# requests left", q: "37 requests", want: true },
    { kind: "text", folded: "# requests left", q: "REQUESTS LEFT", want: true },
    { kind: "text", folded: "# requests left", q: "quests  le", want: true },
    { kind: "text", folded: "# requests left", q: "requests right", want: false },
    { kind: "text", folded: "time: #.# min left", q: "12.5 min", want: true },
    { kind: "finding", folded: "missing_reminder", q: "missing", want: true },
    { kind: "finding", folded: "missing_reminder", q: "MISSING_REMINDER", want: true },
    { kind: "finding", folded: "missing_reminder", q: "reminder", want: false },
    { kind: "action", folded: "edit_block", q: "Edit", want: true },
    { kind: "action", folded: "edit_block", q: "block", want: false },
    { kind: "block", folded: "intro-2", q: "intro-2", want: true },
    { kind: "block", folded: "intro-2", q: "intro-3", want: false },
    { kind: "block", folded: "intro-2", q: " Intro ", want: true },
  ] as const)("$kind $folded ~ $q: $want", ({ kind, folded, q, want }) => {
    expect(termMatches(kind, folded, foldQuery(q))).toBe(want);
  });
});

describe("collectMatches", () => {
  it("counts each term's turns and the distinct turns of all, unioned per bucket", () => {
    const hits: TermHit[] = [
      { term: 0, bucket: 0, mask: mask(1, 2, 3) },
      { term: 1, bucket: 0, mask: mask(2, 9) },
      { term: 1, bucket: 2, mask: mask(600) },
    ];
    expect(collectMatches(2, hits, 500)).toEqual({
      termTurns: [3, 3],
      total: 5,
      matches: [
        { turn: 1, terms: [0] },
        { turn: 2, terms: [0, 1] },
        { turn: 3, terms: [0] },
        { turn: 9, terms: [1] },
        { turn: 600, terms: [1] },
      ],
      truncated: false,
    });
  });

  it("lists the first turns up to the cap, in turn order whatever the rows' order, and still counts all", () => {
    const hits: TermHit[] = [
      { term: 0, bucket: 1, mask: mask(256, 300) },
      { term: 0, bucket: 0, mask: mask(5, 6, 7) },
    ];
    expect(collectMatches(1, hits, 4)).toEqual({
      termTurns: [5],
      total: 5,
      matches: [
        { turn: 5, terms: [0] },
        { turn: 6, terms: [0] },
        { turn: 7, terms: [0] },
        { turn: 256, terms: [0] },
      ],
      truncated: true,
    });
  });

  it("answers nothing for no rows", () => {
    expect(collectMatches(0, [], 500)).toEqual({ termTurns: [], total: 0, matches: [], truncated: false });
  });
});
