import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent, type TRunDecisions } from "@/lib/contracts";
import { buildTimeline } from "@/lib/derived/timeline/build-timeline";
import { keysToFollow, longChainsOverlapping, longReviewerChains, reviewerEventsForWindow, SHORT_CHAIN_TURNS } from "./window-events";

/** Turn-tagged reviewer events in run order, named: [name, turn, type, body]; the name is the id. */
function events(list: [string, number, string, Record<string, unknown>][]): TEvent[] {
  return list.map(([name, turn, type, body], i) =>
    ZEvent.parse({ id: name, runId: "r", type, turn, ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), body }),
  );
}

const decisions: TRunDecisions = { runId: "r", turns: [], findings: [] };

const A = [
  ["a-cand", 1, "reviewer.candidate", { candidateId: "A", checkpoint: 1 }],
  ["a-adm", 1, "reviewer.admission", { candidateId: "A", granted: true, reasons: [] }],
  ["a-disp", 2, "reviewer.dispatched", { candidateId: "A", dispatchId: "dA" }],
  ["a-done", 3, "reviewer.completed", { dispatchId: "dA", verdict: "ok" }],
] as [string, number, string, Record<string, unknown>][];

describe("reviewerEventsForWindow", () => {
  it.each([
    ["a chain before the window: none", events(A), [20, 30], 50, []],
    ["a chain inside the window: all its events", events(A), [1, 3], 50, ["a-cand", "a-adm", "a-disp", "a-done"]],
    ["a chain whose completion alone is in the window", events(A), [3, 9], 50, ["a-cand", "a-adm", "a-disp", "a-done"]],
    [
      "a dispatch before the window completed after it (no event inside)",
      events([
        ["b-cand", 5, "reviewer.candidate", { candidateId: "B" }],
        ["b-disp", 6, "reviewer.dispatched", { candidateId: "B", dispatchId: "dB" }],
        ["b-done", 40, "reviewer.completed", { dispatchId: "dB" }],
      ]),
      [20, 30],
      50,
      ["b-cand", "b-disp", "b-done"],
    ],
    [
      "a dispatch never completed reaches the run's end, so every later window",
      events([["c-disp", 6, "reviewer.dispatched", { candidateId: "C", dispatchId: "dC" }]]),
      [20, 30],
      50,
      ["c-disp"],
    ],
    [
      "a dispatch never completed, the window past the run's end",
      events([["c-disp", 6, "reviewer.dispatched", { candidateId: "C", dispatchId: "dC" }]]),
      [60, 70],
      50,
      [],
    ],
    [
      "a candidate cancelled long after, across the window",
      events([
        ["d-cand", 5, "reviewer.candidate", { candidateId: "D" }],
        ["d-cancel", 45, "reviewer.cancelled", { candidateId: "D", reason: "late" }],
      ]),
      [20, 30],
      50,
      ["d-cand", "d-cancel"],
    ],
    [
      "a repeated candidate event in the window of a chain outside it: nothing (the lane ignores it)",
      events([...A, ["a-again", 25, "reviewer.candidate", { candidateId: "A" }]]),
      [20, 30],
      50,
      [],
    ],
    [
      "a stray completion in the window: it, and every event of its dispatchId and their chains",
      events([...A, ["a-stray", 25, "reviewer.completed", { dispatchId: "dA" }]]),
      [20, 30],
      50,
      ["a-cand", "a-adm", "a-disp", "a-done", "a-stray"],
    ],
    [
      "a dispatchId shared by two chains: the earlier one comes along (it takes the first completion)",
      events([
        ["e-disp", 10, "reviewer.dispatched", { candidateId: "E", dispatchId: "dX" }],
        ["f-cand", 11, "reviewer.candidate", { candidateId: "F" }],
        ["f-disp", 12, "reviewer.dispatched", { candidateId: "F", dispatchId: "dX" }],
        ["x-done-1", 13, "reviewer.completed", { dispatchId: "dX" }],
        ["x-done-2", 40, "reviewer.completed", { dispatchId: "dX" }],
      ]),
      [20, 30],
      50,
      ["e-disp", "f-cand", "f-disp", "x-done-1", "x-done-2"],
    ],
  ] as [string, TEvent[], [number, number], number, string[]][])("%s", (_, all, [from, to], end, expected) => {
    const chosen = reviewerEventsForWindow(all, from, to, end);
    expect(chosen.map((e) => e.id).sort()).toEqual([...expected].sort());
    // And the window's Reviewer lane from only these equals the one from every event.
    // (`runTurnRange`: the run's rebuilt turns end at `end`, where an open dispatch reaches.)
    const options = { fromTurn: from, toTurn: to, runTurnRange: [0, end] as [number, number] };
    const whole = buildTimeline(decisions, all, options);
    const read = buildTimeline(decisions, chosen, options);
    expect(read.reviewer).toEqual(whole.reviewer);
  });

  it("leaves out events of other types", () => {
    const other = ZEvent.parse({
      id: "z-note",
      runId: "r",
      type: "user.notified",
      turn: 2,
      ts: "2026-01-01T00:00:00.000Z",
      body: { channel: "c", message: "m" },
    });
    expect(reviewerEventsForWindow([other, ...events(A)], 0, 10, 50).map((e) => e.id)).not.toContain("z-note");
  });
});

describe("longReviewerChains", () => {
  const L = SHORT_CHAIN_TURNS;
  it.each([
    ["a short chain: none", events(A), 500, []],
    [
      "a chain exactly SHORT_CHAIN_TURNS long is short; one turn more is long",
      events([
        ["p", 10, "reviewer.candidate", { candidateId: "P" }],
        ["p-cancel", 10 + L, "reviewer.cancelled", { candidateId: "P", reason: "x" }],
        ["q", 10, "reviewer.candidate", { candidateId: "Q" }],
        ["q-cancel", 11 + L, "reviewer.cancelled", { candidateId: "Q", reason: "x" }],
      ]),
      500,
      [["Q", 10, 11 + L]],
    ],
    [
      "an open dispatch reaches the run's end",
      events([["o", 7, "reviewer.dispatched", { candidateId: "O", dispatchId: "dO" }]]),
      500,
      [["O", 7, 500]],
    ],
    [
      "an open dispatch near the run's end is short",
      events([["o", 480, "reviewer.dispatched", { candidateId: "O", dispatchId: "dO" }]]),
      500,
      [],
    ],
    [
      "a completion far after its dispatch",
      events([
        ["d", 5, "reviewer.dispatched", { candidateId: "D", dispatchId: "dD" }],
        ["d-done", 300, "reviewer.completed", { dispatchId: "dD" }],
      ]),
      500,
      [["D", 5, 300]],
    ],
  ] as [string, TEvent[], number, [string, number, number][]][])("%s", (_, all, end, expected) => {
    expect(longReviewerChains(all, end)).toEqual(expected);
  });
});

describe("longChainsOverlapping", () => {
  it.each([
    ["before", [["A", 1, 9]], [10, 20], []],
    ["ends on the window's first turn", [["A", 1, 10]], [10, 20], ["A"]],
    ["starts on its last turn", [["A", 20, 90]], [10, 20], ["A"]],
    ["spans it", [["A", 1, 90]], [10, 20], ["A"]],
    ["after", [["A", 21, 90]], [10, 20], []],
  ] as [string, [string, number, number][], [number, number], string[]][])("%s", (_, spans, [from, to], expected) => {
    expect(longChainsOverlapping(spans, from, to)).toEqual(expected);
  });
});

describe("keysToFollow", () => {
  it("lists the candidateIds and dispatchIds not known yet, once each", () => {
    const all = events([
      ["a", 1, "reviewer.candidate", { candidateId: "A" }],
      ["b", 2, "reviewer.dispatched", { candidateId: "B", dispatchId: "dB" }],
      ["c", 3, "reviewer.completed", { dispatchId: "dC" }],
      ["c2", 4, "reviewer.completed", { dispatchId: "dC" }],
      ["k", 5, "reviewer.cancelled", { candidateId: "K", reason: "x" }],
    ]);
    expect(keysToFollow(all, { candidateIds: new Set(["A"]), dispatchIds: new Set(["dB"]) })).toEqual({
      candidateIds: ["B", "K"],
      dispatchIds: ["dC"],
    });
  });
});
