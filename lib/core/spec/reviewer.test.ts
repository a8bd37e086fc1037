/** R13: Reviewer candidates (rebuilt) and admission, with the denial reasons in order. */
import { describe, expect, it } from "vitest";
import type { TPolicyInput } from "@/lib/contracts";
import { rebuild } from "@/lib/core/index";
import { json, REQ, run, turnOf, type RunBuilder, type TurnBuilder } from "./builders";

type Reviewer = { autoReviewAllowed?: boolean; minRequestsLeft?: number };

/** Checkpoint 1 at turn 5 (everyTurns 5); `before` adds events on earlier / other turns. */
function admissionAt5(p: TPolicyInput, turn5: (t: TurnBuilder) => unknown, before: (b: RunBuilder) => unknown = () => {}) {
  const b = run({ policy: { review: { everyTurns: 5 }, ...p } });
  before(b);
  b.turn(5, (t) => {
    turn5(t);
    t.final(10).ok();
  });
  return turnOf(json(rebuild(b.events())), 5).reviewer;
}

const granted = { candidate: { checkpoint: 1 }, admission: { granted: true, reasons: [] } };
const denied = (...reasons: string[]) => ({ candidate: { checkpoint: 1 }, admission: { granted: false, reasons } });

describe("R13 admission: autoReviewAllowed, usable − used >= minRequestsLeft, no dispatch in progress", () => {
  const on: Reviewer = { autoReviewAllowed: true, minRequestsLeft: 8 };
  const cases: {
    name: string;
    requests?: object;
    reviewer: Reviewer;
    turn5?: (t: TurnBuilder) => unknown;
    before?: (b: RunBuilder) => unknown;
    expected: unknown;
  }[] = [
    { name: "36 − 28 = 8 >= 8: granted", requests: REQ, reviewer: on, turn5: (t) => t.requests(28), expected: granted },
    {
      name: "36 − 29 = 7 < 8: insufficient_budget",
      requests: REQ,
      reviewer: on,
      turn5: (t) => t.requests(29),
      expected: denied("insufficient_budget"),
    },
    {
      name: "autoReviewAllowed defaults to false: auto_review_disabled",
      requests: REQ,
      reviewer: { minRequestsLeft: 0 },
      turn5: (t) => t.requests(1),
      expected: denied("auto_review_disabled"),
    },
    {
      name: "minRequestsLeft defaults to 0: usable − used = 0 is enough",
      requests: REQ,
      reviewer: { autoReviewAllowed: true },
      turn5: (t) => t.requests(36),
      expected: granted,
    },
    {
      name: "usable − used is raw and may be negative: −2 < 0",
      requests: { limit: 10, stages: [0.5] },
      reviewer: { autoReviewAllowed: true },
      turn5: (t) => t.requests(12),
      expected: denied("insufficient_budget"),
    },
    {
      name: "all three reasons, in order",
      requests: REQ,
      reviewer: { autoReviewAllowed: false, minRequestsLeft: 8 },
      turn5: (t) => t.requests(35),
      before: (b) => b.turn(3, (t) => t.dispatched("c0", "d0")),
      expected: denied("auto_review_disabled", "insufficient_budget", "review_in_progress"),
    },
    {
      name: "requests meter off: the budget condition holds",
      reviewer: { autoReviewAllowed: true, minRequestsLeft: 100 },
      turn5: (t) => t.requests(35),
      expected: granted,
    },
    {
      name: "requests section but no reading yet: the budget condition holds",
      requests: REQ,
      reviewer: { autoReviewAllowed: true, minRequestsLeft: 100 },
      expected: granted,
    },
    {
      name: "the latest reading of an earlier turn is the turn's reading",
      requests: REQ,
      reviewer: on,
      before: (b) => b.turn(2, (t) => t.requests(30).final(10).ok()),
      expected: denied("insufficient_budget"),
    },
    {
      name: "a reading tagged with a later turn does not count",
      requests: REQ,
      reviewer: on,
      before: (b) => {
        b.turn(6, (t) => t.requests(35).final(10).ok());
        b.turn(2, (t) => t.requests(10).final(10).ok());
      },
      expected: granted,
    },
    {
      name: "a reading of the turn sent after the submission still counts",
      requests: REQ,
      reviewer: on,
      turn5: (t) => t.final(10).ok().requests(35),
      expected: denied("insufficient_budget"),
    },
    {
      name: "dispatched at turn 3, never completed: review_in_progress",
      reviewer: on,
      before: (b) => b.turn(3, (t) => t.dispatched("c0", "d0")),
      expected: denied("review_in_progress"),
    },
    {
      name: "dispatched at turn 3, completed at turn 4: not in progress",
      reviewer: on,
      before: (b) => b.turn(3, (t) => t.dispatched("c0", "d0")).turn(4, (t) => t.completed("d0")),
      expected: granted,
    },
    {
      name: "completed only at turn 5: still in progress at the start of turn 5",
      reviewer: on,
      turn5: (t) => t.completed("d0"),
      before: (b) => b.turn(3, (t) => t.dispatched("c0", "d0")),
      expected: denied("review_in_progress"),
    },
    {
      name: "dispatched at turn 5 itself: not in progress at the start of turn 5",
      reviewer: on,
      turn5: (t) => t.dispatched("c5", "d5"),
      expected: granted,
    },
    {
      name: "a cancellation does not end a dispatch (only a completion does)",
      reviewer: on,
      before: (b) => b.turn(3, (t) => t.dispatched("c0", "d0").cancelled("c0", "superseded")),
      expected: denied("review_in_progress"),
    },
    {
      name: "a completion of another dispatch does not end it",
      reviewer: on,
      before: (b) => b.turn(3, (t) => t.dispatched("c0", "d0")).turn(4, (t) => t.completed("d9")),
      expected: denied("review_in_progress"),
    },
  ];

  it.each(cases)("$name", ({ requests, reviewer, turn5, before, expected }) => {
    const p: TPolicyInput = requests ? { requests: requests as TPolicyInput["requests"], reviewer } : { reviewer };
    expect(admissionAt5(p, turn5 ?? (() => {}), before)).toStrictEqual(expected);
  });

  it("the recorded agent admission does not change the rebuilt one", () => {
    expect(admissionAt5({ reviewer: { autoReviewAllowed: false } }, (t) => t.candidate("c5", 1).admission("c5", true))).toStrictEqual(
      denied("auto_review_disabled"),
    );
  });
});

describe("R13 candidates: only with a reviewer section, on a checkpoint higher than the last candidate's", () => {
  it("no reviewer section: reviewer is null (key present) even at a checkpoint", () => {
    const d = json(
      rebuild(
        run({ policy: { review: { everyTurns: 5 } } })
          .turn(5, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 5)).toHaveProperty("reviewer", null);
    expect(turnOf(d, 5).reminders.map((r) => r.key)).toEqual(["review"]);
  });

  it("no review section: no checkpoint, no candidate", () => {
    const d = json(
      rebuild(
        run({ policy: { reviewer: { autoReviewAllowed: true } } })
          .turn(50, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 50).reviewer).toBeNull();
  });

  const cases = [
    {
      name: "everyTurns 5: candidates at 5 (k=1) and 10 (k=2), not at 6 or 9",
      turns: [
        [5, (t: TurnBuilder) => t.final(10).ok()],
        [6, (t: TurnBuilder) => t.final(10).ok()],
        [9, (t: TurnBuilder) => t.final(10).ok()],
        [10, (t: TurnBuilder) => t.final(10).ok()],
      ],
      expected: { 5: 1, 6: null, 9: null, 10: 2 },
    },
    {
      name: "independent of the suggestion: dropped suggestion is repeated, the candidate is not",
      capacity: 10,
      turns: [
        [5, (t: TurnBuilder) => t.final(10).ok()],
        [6, (t: TurnBuilder) => t.final(10).ok()],
      ],
      expected: { 5: 1, 6: null },
    },
    {
      name: "independent of the suggestion: failed suggestion, no second candidate",
      turns: [
        [5, (t: TurnBuilder) => t.final(10).submitted("failed")],
        [6, (t: TurnBuilder) => t.final(10).ok()],
      ],
      expected: { 5: 1, 6: null },
    },
    {
      name: "afterMs gives the checkpoint too (time reading, no time section)",
      afterMs: 600_000,
      turns: [
        [1, (t: TurnBuilder) => t.time(600_000).final(10).ok()],
        [2, (t: TurnBuilder) => t.time(700_000).final(10).ok()],
        [3, (t: TurnBuilder) => t.time(1_900_000).final(10).ok()],
      ],
      expected: { 1: 1, 2: null, 3: 3 },
    },
  ] as const;

  it.each(cases)("$name", (c) => {
    const review = "afterMs" in c ? { afterMs: c.afterMs } : { everyTurns: 5 };
    const p: TPolicyInput = { review, reviewer: { autoReviewAllowed: true } };
    if ("capacity" in c) p.context = { capacityBytes: c.capacity, stages: [5] };
    const b = run({ policy: p });
    for (const [n, fill] of c.turns) b.turn(n, fill);
    const d = json(rebuild(b.events()));
    const got = Object.fromEntries(d.turns.map((t) => [t.turn, t.reviewer?.candidate.checkpoint ?? null]));
    expect(got).toEqual(c.expected);
    if ("capacity" in c) {
      expect(d.turns.map((t) => t.reminders.map((r) => `${r.key} ${r.status}`))).toEqual([["review dropped"], ["review dropped"]]);
    }
  });
});
