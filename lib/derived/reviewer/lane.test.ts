import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { chainExtent, reviewerLane } from "./lane";

/** Turn-tagged reviewer events in run order: [turn, type, body]. */
function events(list: [number, string, Record<string, unknown>][]): TEvent[] {
  return list.map(([turn, type, body], i) =>
    ZEvent.parse({ id: `e-${i}`, runId: "r", type, turn, ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), body }),
  );
}

describe("reviewerLane", () => {
  it.each([
    [
      "a full chain: candidate → admission → dispatch → completion",
      events([
        [10, "reviewer.candidate", { candidateId: "c1", checkpoint: 1 }],
        [10, "reviewer.admission", { candidateId: "c1", granted: true, reasons: [] }],
        [11, "reviewer.dispatched", { candidateId: "c1", dispatchId: "d1" }],
        [14, "reviewer.completed", { dispatchId: "d1", verdict: "ok" }],
      ]),
      [
        {
          candidateId: "c1",
          turn: 10,
          checkpoint: 1,
          admissions: [{ turn: 10, granted: true, reasons: [] }],
          dispatches: [{ dispatchId: "d1", turn: 11, doneTurn: 14, verdict: "ok" }],
        },
      ],
      [],
    ],
    [
      "a dispatch without a recorded candidate, still running at the end",
      events([[5, "reviewer.dispatched", { candidateId: "cx", dispatchId: "d9" }]]),
      [{ candidateId: "cx", turn: null, checkpoint: null, admissions: [], dispatches: [{ dispatchId: "d9", turn: 5, doneTurn: null }] }],
      [],
    ],
    [
      "a denied, cancelled candidate and a stray completion",
      events([
        [20, "reviewer.candidate", { candidateId: "c2" }],
        [20, "reviewer.admission", { candidateId: "c2", granted: false, reasons: ["insufficient_budget"] }],
        [20, "reviewer.cancelled", { candidateId: "c2", reason: "admission_denied" }],
        [21, "reviewer.cancelled", { candidateId: "c2", reason: "again" }],
        [22, "reviewer.completed", { dispatchId: "nope" }],
      ]),
      [
        {
          candidateId: "c2",
          turn: 20,
          checkpoint: null,
          admissions: [{ turn: 20, granted: false, reasons: ["insufficient_budget"] }],
          dispatches: [],
          cancelled: { turn: 20, reason: "admission_denied" },
        },
      ],
      [{ turn: 22, dispatchId: "nope" }],
    ],
    [
      "a dispatchId dispatched twice is completed oldest first",
      events([
        [1, "reviewer.dispatched", { candidateId: "a", dispatchId: "d" }],
        [2, "reviewer.dispatched", { candidateId: "b", dispatchId: "d" }],
        [3, "reviewer.completed", { dispatchId: "d" }],
      ]),
      [
        { candidateId: "a", turn: null, checkpoint: null, admissions: [], dispatches: [{ dispatchId: "d", turn: 1, doneTurn: 3 }] },
        { candidateId: "b", turn: null, checkpoint: null, admissions: [], dispatches: [{ dispatchId: "d", turn: 2, doneTurn: null }] },
      ],
      [],
    ],
  ])("%s", (_, ordered, chains, strayCompletions) => {
    const lane = reviewerLane({}, [], ordered);
    expect(lane.chains).toEqual(chains);
    expect(lane.strayCompletions).toEqual(strayCompletions);
    expect([lane.schedule, lane.admission, lane.rebuilt]).toEqual([null, null, []]);
  });

  it("gives the policy's schedule in turns and minutes", () => {
    const lane = reviewerLane({ review: { afterMs: 600_000 }, reviewer: { autoReviewAllowed: false, minRequestsLeft: 8 } }, [], []);
    expect(lane.schedule).toEqual({ everyTurns: null, afterMin: 10 });
    expect(lane.admission).toEqual({ autoReviewAllowed: false, minRequestsLeft: 8 });
  });

  it("extends an open dispatch to the end of the run", () => {
    const chain = { candidateId: "c", turn: 4, checkpoint: 1, admissions: [], dispatches: [{ dispatchId: "d", turn: 6, doneTurn: null }] };
    expect(chainExtent(chain, 50)).toEqual([4, 50]);
    expect(chainExtent({ ...chain, dispatches: [{ dispatchId: "d", turn: 6, doneTurn: 9 }] }, 50)).toEqual([4, 9]);
    expect(chainExtent({ ...chain, turn: null, dispatches: [] }, 50)).toEqual([Infinity, -Infinity]);
  });
});
