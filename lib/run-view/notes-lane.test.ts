import { describe, expect, it } from "vitest";
import { noteMarks } from "./notes-lane";

describe("noteMarks", () => {
  const domain = { from: 0, to: 100 };

  it("places one mark per commented turn inside the window", () => {
    expect(
      noteMarks(
        [
          { turn: 10, count: 1 },
          { turn: 50, count: 3 },
          { turn: 150, count: 1 },
        ],
        domain,
      ),
    ).toEqual([
      { turn: 10, toTurn: 10, count: 1, x: 0.1, title: "1 comment on turn 10" },
      { turn: 50, toTurn: 50, count: 3, x: 0.5, title: "3 comments on turn 50" },
    ]);
  });

  it("folds turns closer than the gap into one mark that selects the first and counts all", () => {
    const marks = noteMarks(
      [
        { turn: 1000, count: 1 },
        { turn: 1003, count: 2 },
        { turn: 5000, count: 1 },
      ],
      { from: 0, to: 10_000 },
    );
    expect(marks.map((m) => [m.turn, m.toTurn, m.count, m.title])).toEqual([
      [1000, 1003, 3, "3 comments on turns 1000–1003"],
      [5000, 5000, 1, "1 comment on turn 5000"],
    ]);
  });

  it("zoomed in, the same turns are apart again", () => {
    const marks = noteMarks(
      [
        { turn: 1000, count: 1 },
        { turn: 1003, count: 2 },
      ],
      { from: 990, to: 1010 },
    );
    expect(marks.map((m) => m.turn)).toEqual([1000, 1003]);
  });

  it("a one-turn window puts its mark in the middle", () => {
    expect(noteMarks([{ turn: 4, count: 1 }], { from: 4, to: 4 })[0].x).toBe(0.5);
  });
});
