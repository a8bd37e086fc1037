/** Contract §8: follow-up (association, not effect) over the decisions and the events. */
import { describe, expect, it } from "vitest";
import type { TPolicyInput } from "@/lib/contracts";
import { followUp, rebuild } from "@/lib/core/index";
import { CTX, KEY_ORDER, REQ, run, type RunBuilder } from "./builders";

const FU: TPolicyInput = {
  requests: REQ,
  time: { limitMs: 1_800_000, stages: [0.5] },
  context: CTX,
  edits: { perBlockLimit: 2, stages: [0.5] },
  review: { everyTurns: 10 },
};

type Item = { turn: number; key: string; subject: string | null; stage: number; followed: boolean };

function sortItems(items: readonly Item[]): Item[] {
  return [...items].sort(
    (a, b) =>
      a.turn - b.turn ||
      KEY_ORDER.indexOf(a.key as never) - KEY_ORDER.indexOf(b.key as never) ||
      String(a.subject).localeCompare(String(b.subject)),
  );
}

function follow(b: RunBuilder, window?: number) {
  const events = b.events();
  return followUp(rebuild(events), events, window === undefined ? undefined : { window });
}

describe("§8 follow-up items", () => {
  // Later turns carry a request.final but no submission: their reminders are pending, never delivered.
  const cases: { name: string; build: (b: RunBuilder) => unknown; window?: number; items: Item[] }[] = [
    {
      name: "requests notice, finalize at t+2: followed",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()).turn(3, (t) => t.final(10).action("finalize")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: true }],
    },
    {
      name: "requests notice, finalize at t+3: followed (default window 3)",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()).turn(4, (t) => t.final(10).action("finalize")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: true }],
    },
    {
      name: "requests notice, finalize at t+4: not followed",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()).turn(5, (t) => t.final(10).action("finalize")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: false }],
    },
    {
      name: "requests notice, finalize in turn t itself: not followed",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok().action("finalize")).turn(2, (t) => t.final(10)),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: false }],
    },
    {
      name: "requests notice, other actions only: not followed",
      build: (b) =>
        b
          .turn(1, (t) => t.requests(18).final(10).ok())
          .turn(2, (t) => t.final(10).action("tool_call").action("review_objectives").action("check_evidence")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: false }],
    },
    {
      name: "window 1: finalize at t+1 followed",
      window: 1,
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()).turn(2, (t) => t.final(10).action("finalize")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: true }],
    },
    {
      name: "window 1: finalize at t+2 not followed",
      window: 1,
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()).turn(3, (t) => t.final(10).action("finalize")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: false }],
    },
    {
      name: "a turn carrying only a late model.action (not rebuilt) still counts",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()).turn(2, (t) => t.action("finalize")),
      items: [{ turn: 1, key: "requests", subject: null, stage: 1, followed: true }],
    },
    {
      name: "time notice, finalize: followed",
      build: (b) => b.turn(1, (t) => t.time(900_000).final(10).ok()).turn(2, (t) => t.final(10).action("finalize")),
      items: [{ turn: 1, key: "time", subject: null, stage: 1, followed: true }],
    },
    {
      name: "time notice without finalize: not followed",
      build: (b) => b.turn(1, (t) => t.time(900_000).final(10).ok()).turn(2, (t) => t.final(10).action("other")),
      items: [{ turn: 1, key: "time", subject: null, stage: 1, followed: false }],
    },
    {
      name: "context notice, turn t+1 smaller: followed",
      build: (b) => b.turn(1, (t) => t.final(9000).ok()).turn(2, (t) => t.final(8999)),
      items: [{ turn: 1, key: "context", subject: null, stage: 2, followed: true }],
    },
    {
      name: "context notice, turn t+1 equal: not followed",
      build: (b) => b.turn(1, (t) => t.final(9000).ok()).turn(2, (t) => t.final(9000)),
      items: [{ turn: 1, key: "context", subject: null, stage: 2, followed: false }],
    },
    {
      name: "context notice, turn t+1 larger: not followed",
      build: (b) => b.turn(1, (t) => t.final(9000).ok()).turn(2, (t) => t.final(9100)),
      items: [{ turn: 1, key: "context", subject: null, stage: 2, followed: false }],
    },
    {
      name: "context notice, no turn t+1 (t+2 smaller): not followed",
      build: (b) => b.turn(1, (t) => t.final(9000).ok()).turn(3, (t) => t.final(100)),
      items: [{ turn: 1, key: "context", subject: null, stage: 2, followed: false }],
    },
    {
      name: "context notice, turn t+1 has events but no request.final: not followed",
      build: (b) =>
        b
          .turn(1, (t) => t.final(9000).ok())
          .turn(2, (t) => t.action("other"))
          .turn(3, (t) => t.final(100)),
      items: [{ turn: 1, key: "context", subject: null, stage: 2, followed: false }],
    },
    {
      name: "exhausted block, edit_block on it within the window: not followed",
      build: (b) => b.turn(1, (t) => t.block("b1", 2).final(10).ok()).turn(3, (t) => t.final(10).action("edit_block", "b1")),
      items: [{ turn: 1, key: "edits", subject: "b1", stage: 1, followed: false }],
    },
    {
      name: "exhausted block, append_block on it and edit_block on another: followed",
      build: (b) =>
        b
          .turn(1, (t) => t.block("b1", 2).final(10).ok())
          .turn(2, (t) => t.final(10).action("append_block", "b1").action("edit_block", "b2")),
      items: [{ turn: 1, key: "edits", subject: "b1", stage: 1, followed: true }],
    },
    {
      name: "exhausted block, edit_block on it after the window: followed",
      build: (b) =>
        b
          .turn(1, (t) => t.block("b1", 2).final(10).ok())
          .turn(2, (t) => t.final(10))
          .turn(5, (t) => t.final(10).action("edit_block", "b1")),
      items: [{ turn: 1, key: "edits", subject: "b1", stage: 1, followed: true }],
    },
    {
      name: "a block not exhausted: its state is not evaluated",
      build: (b) => b.turn(1, (t) => t.block("b1", 1).final(10).ok()).turn(2, (t) => t.final(10).action("edit_block", "b1")),
      items: [],
    },
    {
      name: "review suggestion, check_evidence: followed",
      build: (b) => b.turn(10, (t) => t.final(10).ok()).turn(11, (t) => t.final(10).action("check_evidence")),
      items: [{ turn: 10, key: "review", subject: null, stage: 1, followed: true }],
    },
    {
      name: "review suggestion, review_objectives: followed",
      build: (b) => b.turn(10, (t) => t.final(10).ok()).turn(13, (t) => t.final(10).action("review_objectives")),
      items: [{ turn: 10, key: "review", subject: null, stage: 1, followed: true }],
    },
    {
      name: "review suggestion, only finalize and tool calls: not followed",
      build: (b) => b.turn(10, (t) => t.final(10).ok()).turn(11, (t) => t.final(10).action("finalize").action("tool_call")),
      items: [{ turn: 10, key: "review", subject: null, stage: 1, followed: false }],
    },
    {
      name: "uncertain reminders are not evaluated",
      build: (b) =>
        b
          .turn(10, (t) => t.requests(18).block("b1", 2).final(9000).submitted("uncertain"))
          .turn(11, (t) => t.final(10).action("finalize").action("check_evidence")),
      items: [],
    },
    {
      name: "failed, pending and dropped reminders are not evaluated",
      build: (b) =>
        b
          .turn(1, (t) => t.requests(18).final(10).submitted("failed"))
          .turn(2, (t) => t.final(10))
          .turn(3, (t) => t.final(10_000).ok())
          .turn(4, (t) => t.final(10).action("finalize")),
      items: [],
    },
    {
      name: "several keys in one turn",
      build: (b) =>
        b.turn(10, (t) => t.requests(18).block("b1", 2).block("b0", 1).final(9000).ok()).turn(11, (t) => t.final(8000).action("finalize")),
      items: [
        { turn: 10, key: "requests", subject: null, stage: 1, followed: true },
        { turn: 10, key: "context", subject: null, stage: 2, followed: true },
        { turn: 10, key: "edits", subject: "b1", stage: 1, followed: true },
        { turn: 10, key: "review", subject: null, stage: 1, followed: false },
      ],
    },
  ];

  it.each(cases)("$name", ({ build, window, items }) => {
    const b = run({ policy: FU });
    build(b);
    const result = follow(b, window);
    expect(result.window).toBe(window ?? 3);
    expect(sortItems(result.items)).toEqual(items);
  });
});

describe("§8 follow-up rate per key", () => {
  it("lists all five keys in presentation order; rate = followed / delivered; null when none delivered", () => {
    const b = run({ policy: FU })
      .turn(1, (t) => t.requests(18).final(9000).ok())
      .turn(2, (t) => t.final(9500).action("finalize"))
      .turn(3, (t) => t.requests(27).final(10).ok())
      .turn(4, (t) => t.requests(33).final(10).ok())
      .turn(9, (t) => t.final(10).action("finalize"));
    const result = follow(b);
    expect(result.byKey).toEqual([
      { key: "requests", delivered: 3, followed: 1, rate: 1 / 3 },
      { key: "time", delivered: 0, followed: 0, rate: null },
      { key: "context", delivered: 1, followed: 0, rate: 0 },
      { key: "edits", delivered: 0, followed: 0, rate: null },
      { key: "review", delivered: 0, followed: 0, rate: null },
    ]);
  });

  it("a run with nothing delivered: every rate null", () => {
    const b = run({ policy: FU }).turn(1, (t) => t.final(10).ok());
    const result = follow(b);
    expect(result.items).toEqual([]);
    expect(result.byKey.map((k) => [k.key, k.delivered, k.followed, k.rate])).toEqual(KEY_ORDER.map((key) => [key, 0, 0, null]));
  });
});
