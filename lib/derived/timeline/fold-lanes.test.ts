import { describe, expect, it } from "vitest";
import type { TReviewerChain, TTimelineReminder } from "@/lib/contracts";
import {
  foldChains,
  foldCompactions,
  foldFindings,
  foldNotifications,
  foldRebuiltReviewer,
  foldReminders,
  laneBuckets,
  turnBuckets,
} from "./fold-lanes";

describe("turn buckets", () => {
  it.each([
    { first: 0, last: 99, count: 10, turns: [0, 9, 10, 55, 99], buckets: [0, 0, 1, 5, 9] },
    { first: 100, last: 103, count: 10, turns: [100, 101, 103], buckets: [0, 2, 7] },
    { first: 5, last: 5, count: 3, turns: [5], buckets: [0] },
    { first: 0, last: 9, count: 2.9, turns: [0, 4, 5, 9], buckets: [0, 0, 1, 1] },
    // Turns outside the window land on its ends.
    { first: 10, last: 19, count: 5, turns: [0, 30], buckets: [0, 4] },
  ])("[$first, $last] in $count buckets", ({ first, last, count, turns, buckets }) => {
    const of = turnBuckets(first, last, count);
    expect(turns.map(of)).toEqual(buckets);
  });

  it("puts every turn of an empty window in one bucket, and scales with the budget", () => {
    expect(laneBuckets(null, 600)(12345)).toBe(0);
    expect(laneBuckets([0, 5999], 600)(5999)).toBe(149);
  });
});

const tenths = turnBuckets(0, 99, 10); // buckets of 10 turns
const r = (turn: number, extra: Partial<TTimelineReminder> = {}): TTimelineReminder => ({
  turn,
  stage: 1,
  status: "delivered",
  bytes: 40,
  ...extra,
});

describe("foldReminders", () => {
  it.each<{ name: string; items: TTimelineReminder[]; rebuilt?: number[]; byStage?: boolean; folded: TTimelineReminder[] }>([
    {
      name: "one item per bucket, stage and status, counting and spanning its reminders",
      items: [
        r(1),
        r(3),
        r(4, { status: "dropped", bytes: 90, freeBytes: 12 }),
        r(8, { status: "dropped", bytes: 70, freeBytes: -3 }),
        r(12),
      ],
      folded: [
        { turn: 1, toTurn: 3, count: 2, stage: 1, status: "delivered", bytes: 40 },
        { turn: 4, toTurn: 8, count: 2, stage: 1, status: "dropped", bytes: 90, freeBytes: -3 },
        { turn: 12, toTurn: 12, count: 1, stage: 1, status: "delivered", bytes: 40 },
      ],
    },
    {
      name: "a lossless run counts each rebuilt turn it spans (skipped turns are not counted)",
      items: [r(0, { toTurn: 9 })],
      rebuilt: [0, 1, 2, 3, 5, 6, 7, 8, 9],
      folded: [{ turn: 0, toTurn: 9, count: 9, stage: 1, status: "delivered", bytes: 40 }],
    },
    {
      name: "stages apart, blocks apart",
      items: [r(1, { subject: "a" }), r(2, { subject: "b" }), r(3, { subject: "a", stage: 2 }), r(5, { subject: "a" })],
      folded: [
        { turn: 1, toTurn: 5, count: 2, subject: "a", stage: 1, status: "delivered", bytes: 40 },
        { turn: 2, toTurn: 2, count: 1, subject: "b", stage: 1, status: "delivered", bytes: 40 },
        { turn: 3, toTurn: 3, count: 1, subject: "a", stage: 2, status: "delivered", bytes: 40 },
      ],
    },
    {
      name: "review suggestions fold across checkpoints, keeping the first one's",
      items: [r(1, { stage: 4 }), r(5, { stage: 5 }), r(6, { stage: 6, status: "failed" })],
      byStage: false,
      folded: [
        { turn: 1, toTurn: 5, count: 2, stage: 4, status: "delivered", bytes: 40 },
        { turn: 6, toTurn: 6, count: 1, stage: 6, status: "failed", bytes: 40 },
      ],
    },
  ])("$name", ({ items, rebuilt, byStage, folded }) => {
    const turns = rebuilt ?? Array.from({ length: 100 }, (_, i) => i);
    expect(foldReminders(items, tenths, turns, byStage)).toEqual(folded);
  });

  it("counts every reminder however often it is folded again", () => {
    const items = Array.from({ length: 100 }, (_, i) => r(i, { status: i % 7 === 0 ? "dropped" : "delivered" }));
    const once = foldReminders(items, tenths, []);
    const twice = foldReminders(once, turnBuckets(0, 99, 2), []);
    expect(once.reduce((n, item) => n + item.count!, 0)).toBe(100);
    expect(twice.reduce((n, item) => n + item.count!, 0)).toBe(100);
    expect(twice.filter((item) => item.status === "dropped").reduce((n, item) => n + item.count!, 0)).toBe(15);
  });
});

describe("folding the other lanes", () => {
  it("compactions: per outcome, largest original and smallest candidate", () => {
    expect(
      foldCompactions(
        [
          { turn: 1, originalBytes: 900, candidateBytes: 500, outcome: "adopted" },
          { turn: 2, originalBytes: 950, candidateBytes: 520, outcome: "rolled_back" },
          { turn: 7, originalBytes: 800, candidateBytes: 450, outcome: "adopted" },
        ],
        tenths,
      ),
    ).toEqual([
      { turn: 1, toTurn: 7, count: 2, originalBytes: 900, candidateBytes: 450, outcome: "adopted" },
      { turn: 2, toTurn: 2, count: 1, originalBytes: 950, candidateBytes: 520, outcome: "rolled_back" },
    ]);
  });

  it("notifications: the distinct channels, the first message", () => {
    expect(
      foldNotifications(
        [
          { turn: 1, channel: "email", message: "halfway" },
          { turn: 4, channel: "slack", message: "late" },
          { turn: 6, channel: "email", message: "again" },
          { turn: 30, channel: "sms", message: "done" },
        ],
        tenths,
      ),
    ).toEqual([
      { turn: 1, toTurn: 6, count: 3, channel: "email, slack", message: "halfway" },
      { turn: 30, toTurn: 30, count: 1, channel: "sms", message: "done" },
    ]);
  });

  it("findings: per code, counts summed", () => {
    expect(
      foldFindings(
        [
          { turn: 2, code: "STAGE_MISMATCH", count: 2 },
          { turn: 3, code: "MISSING_REMINDER", count: 1 },
          { turn: 9, code: "STAGE_MISMATCH", count: 1 },
        ],
        tenths,
      ),
    ).toEqual([
      { turn: 2, toTurn: 9, code: "STAGE_MISMATCH", count: 3 },
      { turn: 3, toTurn: 3, code: "MISSING_REMINDER", count: 1 },
    ]);
  });

  it("the rules' Reviewer candidates: per outcome, every denial reason kept", () => {
    expect(
      foldRebuiltReviewer(
        [
          { turn: 1, checkpoint: 1, granted: false, reasons: ["insufficient_budget"] },
          { turn: 2, checkpoint: 2, granted: true, reasons: [] },
          { turn: 3, checkpoint: 3, granted: false, reasons: ["review_in_progress", "insufficient_budget"] },
        ],
        tenths,
      ),
    ).toEqual([
      { turn: 1, toTurn: 3, count: 2, checkpoint: 1, granted: false, reasons: ["insufficient_budget", "review_in_progress"] },
      { turn: 2, toTurn: 2, count: 1, checkpoint: 2, granted: true, reasons: [] },
    ]);
  });

  it("recorded chains: counted per bucket of their first turn, spanning every item", () => {
    const chain = (id: string, turn: number, extra: Partial<TReviewerChain> = {}): TReviewerChain => ({
      candidateId: id,
      turn,
      checkpoint: 1,
      admissions: [{ turn, granted: true, reasons: [] }],
      dispatches: [{ dispatchId: `d-${id}`, turn: turn + 1, doneTurn: turn + 15 }],
      ...extra,
    });
    expect(
      foldChains(
        [
          chain("a", 1),
          chain("b", 4, {
            admissions: [{ turn: 4, granted: false, reasons: ["insufficient_budget"] }],
            dispatches: [],
            cancelled: { turn: 5, reason: "x" },
          }),
          chain("c", 8, { dispatches: [{ dispatchId: "d-c", turn: 9, doneTurn: null }] }),
          chain("d", 40),
        ],
        tenths,
        99,
      ),
    ).toEqual([
      { turn: 1, toTurn: 99, chains: 3, granted: 2, denied: 1, dispatches: 2, running: 1, cancelled: 1 },
      { turn: 40, toTurn: 55, chains: 1, granted: 1, denied: 0, dispatches: 1, running: 0, cancelled: 0 },
    ]);
  });
});
