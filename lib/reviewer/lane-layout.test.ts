import { describe, expect, it } from "vitest";
import type { TReviewerLane } from "@/lib/contracts";
import { packRows, reviewerLayout } from "./lane-layout";

describe("Reviewer lane layout", () => {
  it("packs overlapping intervals on separate rows", () => {
    expect(
      packRows(
        [
          [0, 10],
          [5, 20],
          [12, 30],
          [40, 41],
        ],
        0,
      ),
    ).toEqual({ rows: [0, 1, 0, 0], count: 2 });
    expect(
      packRows(
        [
          [0, 10],
          [1, 10],
          [2, 10],
        ],
        0,
        2,
      ).count,
    ).toBe(2);
  });

  it("keeps the rules' candidates apart from the recorded chains, with spans and denial reasons", () => {
    const lane: TReviewerLane = {
      schedule: { everyTurns: 10, afterMin: null },
      admission: { autoReviewAllowed: true, minRequestsLeft: 8 },
      rebuilt: [
        { turn: 10, checkpoint: 1, granted: true, reasons: [] },
        { turn: 20, checkpoint: 2, granted: false, reasons: ["insufficient_budget", "review_in_progress"] },
      ],
      chains: [
        {
          candidateId: "c1",
          turn: 10,
          checkpoint: 1,
          admissions: [{ turn: 10, granted: true, reasons: [] }],
          dispatches: [{ dispatchId: "d1", turn: 11, doneTurn: 15 }],
        },
        {
          candidateId: "c2",
          turn: 20,
          checkpoint: 2,
          admissions: [],
          dispatches: [{ dispatchId: "d2", turn: 21, doneTurn: null }],
          cancelled: undefined,
        },
      ],
      strayCompletions: [],
    };
    const layout = reviewerLayout(lane, { from: 0, to: 100 });
    expect(layout.rebuilt.map((m) => m.glyph)).toEqual(["granted", "denied"]);
    expect(layout.rebuilt[1].title).toContain("denied: insufficient budget, review in progress");
    expect(layout.recorded.spans.map((s) => [s.x1, s.x2, s.open])).toEqual([
      [0.11, 0.15, false],
      [0.21, 1, true],
    ]);
    expect(layout.recorded.marks.map((m) => m.glyph)).toEqual(["candidate", "granted", "dispatch", "done", "candidate", "dispatch"]);
    expect(layout.counts).toMatchObject({ rebuilt: 2, denied: 1, chains: 2, dispatches: 2, running: 1 });
  });

  it("packs chains by their extent and says why a candidate was cancelled", () => {
    const chain = (candidateId: string, turn: number, cancelled?: { turn: number; reason: string }) => ({
      candidateId,
      turn,
      checkpoint: null,
      admissions: [{ turn, granted: false, reasons: ["custom_reason"] }],
      dispatches: [],
      cancelled,
    });
    const lane: TReviewerLane = {
      schedule: null,
      admission: null,
      rebuilt: [],
      chains: [
        chain("c1", 10, { turn: 40, reason: "reminder_dropped" }),
        chain("c2", 30, { turn: 35, reason: "admission_denied" }),
        chain("c3", 60),
      ],
      strayCompletions: [],
    };
    const layout = reviewerLayout(lane, { from: 0, to: 100 });
    // c2 (turns 30–35) overlaps c1 (10–40) and goes on a second row; c3 (60) fits on the first again.
    expect(layout.recorded.rows).toBe(2);
    const cancelled = layout.recorded.marks.filter((m) => m.glyph === "cancelled");
    expect(cancelled.map((m) => [m.row, m.title])).toEqual([
      [0, "turn 40 · candidate c1 cancelled: reminder dropped"],
      [1, "turn 35 · candidate c2 cancelled: admission denied"],
    ]);
    expect(layout.recorded.marks.find((m) => m.id === "c0a0")?.title).toBe(
      "turn 10 · recorded admission for candidate c1: denied: custom reason",
    );
    expect(layout.counts).toMatchObject({ chains: 3, cancelled: 2 });
  });

  it("draws a folded lane as one span per bucket, counting what each stands for", () => {
    const lane: TReviewerLane = {
      schedule: { everyTurns: 10, afterMin: null },
      admission: { autoReviewAllowed: true, minRequestsLeft: 8 },
      rebuilt: [
        { turn: 10, toTurn: 90, count: 7, checkpoint: 1, granted: true, reasons: [] },
        { turn: 20, toTurn: 80, count: 2, checkpoint: 2, granted: false, reasons: ["insufficient_budget"] },
      ],
      chains: [],
      chainBuckets: [
        { turn: 10, toTurn: 60, chains: 5, granted: 4, denied: 1, dispatches: 4, running: 0, cancelled: 1 },
        { turn: 200, toTurn: 250, chains: 3, granted: 3, denied: 0, dispatches: 3, running: 1, cancelled: 0 },
      ],
      strayCompletions: [],
    };
    const layout = reviewerLayout(lane, { from: 0, to: 100 });
    expect(layout.counts).toEqual({ rebuilt: 9, denied: 2, chains: 8, dispatches: 7, running: 1, cancelled: 1 });
    expect(layout.rebuilt[1].title).toBe(
      "turns 20–80 · rules: 2 Reviewer candidates from checkpoint 2 · admission denied: insufficient budget · zoom in for each",
    );
    // Only the bucket inside the window is drawn, on one row.
    expect(layout.recorded.rows).toBe(1);
    expect(layout.recorded.spans.map((s) => [s.x1, s.x2, s.open])).toEqual([[0.1, 0.6, false]]);
    expect(layout.recorded.marks.map((m) => m.title)).toEqual([
      "turns 10–60 · recorded: 5 Reviewer chains, 4 admissions granted, 1 denied, 4 dispatches, 1 cancelled · zoom in for each",
    ]);
  });
});
