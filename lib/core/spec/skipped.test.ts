/** R14: skipped turns, and the independence of the result from arrival order and repeats. */
import { describe, expect, it } from "vitest";
import type { TEvent } from "@/lib/contracts";
import { ZEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core/index";
import { CTX, EDITS, findingTurns, json, REQ, reminderTable, rem, run, shuffled, TEACH_COPY, turnOf } from "./builders";

describe("R14 skipped turns", () => {
  it("a turn without request.final is left out of turns, with INCOMPLETE_TURN", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(0, (t) => t.final(10).ok())
          .turn(1, (t) => t.requests(18).ok())
          .turn(2, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(d.turns.map((t) => t.turn)).toEqual([0, 2]);
    expect(findingTurns(d, "INCOMPLETE_TURN")).toEqual([1]);
  });

  it("its readings still count later; no candidates and no ledger change on it", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ, edits: EDITS } })
          .turn(1, (t) => t.requests(18).block("b1", 2).ok())
          .turn(2, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 2).meters.requests?.used).toBe(18);
    expect(reminderTable(d)).toEqual({ 2: ["requests s1 delivered", "edits/b1 s1 delivered"] });
  });

  it.each([
    { name: "a fall on a skipped turn does not lower the ledger", rebuiltMiddle: false, expected: { 1: ["requests s2 delivered"], 3: [] } },
    {
      name: "the same fall on a rebuilt turn does (contrast)",
      rebuiltMiddle: true,
      expected: { 1: ["requests s2 delivered"], 2: [], 3: ["requests s2 delivered"] },
    },
  ])("$name", ({ rebuiltMiddle, expected }) => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(1, (t) => t.requests(27).final(10).ok())
          .turn(2, (t) => (rebuiltMiddle ? t.requests(18).final(10).ok() : t.requests(18).ok()))
          .turn(3, (t) => t.requests(27).final(10).ok())
          .events(),
      ),
    );
    expect(reminderTable(d)).toEqual(expected);
  });

  it("a checkpoint still new is taken on the next rebuilt turn (suggestion and Reviewer candidate)", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ, review: { everyTurns: 5 }, reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 } } })
          .turn(4, (t) => t.requests(10).final(10).ok())
          .turn(5, (t) => t.requests(20).ok())
          .turn(6, (t) => t.final(10).ok())
          .turn(7, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(reminderTable(d)).toEqual({ 4: [], 6: ["requests s1 delivered", "review s1 delivered"], 7: [] });
    expect(turnOf(d, 6).reviewer).toStrictEqual({ candidate: { checkpoint: 1 }, admission: { granted: true, reasons: [] } });
    expect(turnOf(d, 7).reviewer).toBeNull();
  });

  it("a turn carrying only late events (model.action, reviewer.completed) is incomplete too", () => {
    const d = json(
      rebuild(
        run({ policy: {} })
          .turn(0, (t) => t.final(10).ok())
          .turn(1, (t) => t.action("finalize"))
          .turn(2, (t) => t.completed("d0"))
          .events(),
      ),
    );
    expect(d.turns.map((t) => t.turn)).toEqual([0]);
    expect(findingTurns(d, "INCOMPLETE_TURN")).toEqual([1, 2]);
  });

  it("no request-comparing findings on a skipped turn; event findings still made", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ, context: CTX, reviewer: { autoReviewAllowed: false } } })
          .turn(1, (t) =>
            t
              .requests(18)
              .compaction(9000, 7000, "rolled_back")
              .ok([rem("time", 1), rem("time", 1), rem("context", 1)], { countsAgainstBudget: false, purpose: "reminder_resend" })
              .marked([rem("edits", 1, "b9")])
              .admission("c1", true)
              .dispatched("c1", "d1")
              .dispatched("c2", "d2")
              .cancelled("c3", "reminder_dropped"),
          )
          .events(),
      ),
    );
    expect(d.turns).toEqual([]);
    expect(d.findings.map((f) => [f.turn, f.code])).toEqual([
      [1, "INCOMPLETE_TURN"],
      [1, "FREE_REQUEST"],
      [1, "REMINDER_RESEND"],
      [1, "DISPATCH_WITHOUT_ADMISSION"],
      [1, "CONCURRENT_DISPATCH"],
      [1, "ADMISSION_RULE_MISMATCH"],
      [1, "CANDIDATE_CANCELLED_BY_DROP"],
    ]);
  });

  it("MARKED_NOT_SUBMITTED is not made on a skipped turn even without submission", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(1, (t) => t.requests(18).marked([rem("requests", 1)]))
          .events(),
      ),
    );
    expect(d.findings.map((f) => f.code)).toEqual(["INCOMPLETE_TURN"]);
  });
});

describe("§6 run order independence: same events in any order, repeated, give the same result", () => {
  function richRun() {
    return run({
      runId: "teach",
      policy: {
        requests: REQ,
        time: { limitMs: 1_800_000, stages: [0.5, 0.9] },
        context: CTX,
        edits: EDITS,
        review: { everyTurns: 10, afterMs: 600_000 },
        reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 },
      },
      copy: TEACH_COPY,
    })
      .turn(9, (t) => t.requests(17).time(300_000).final(5000).ok([]))
      .turn(10, (t) =>
        t
          .requests(28)
          .final(9962)
          .block("b1", 2)
          .ok([rem("requests", 2), rem("edits", 1, "b1")])
          .candidate("c1", 1)
          .admission("c1", true)
          .dispatched("c1", "d1"),
      )
      .turn(11, (t) =>
        t
          .requests(29)
          .time(1_000_000)
          .compaction(9000, 8000, "rolled_back")
          .final(8000)
          .submitted("uncertain", [rem("context", 1), rem("edits", 1, "b1"), rem("review", 1)])
          .marked([rem("review", 1)]),
      )
      .turn(12, (t) =>
        t
          .action("finalize")
          .block("b1", 4, 4)
          .final(7000)
          .ok([rem("review", 1)], { purpose: "reminder_resend" }),
      )
      .turn(13, (t) => t.completed("d1").requests(40))
      .turn(20, (t) => t.final(100).submitted("failed").submitted("ok", [], { countsAgainstBudget: false }))
      .ended("stopped", "edit_quota_exhausted");
  }

  const events = richRun().events();
  const expected = json(rebuild(events));

  it("the rich run is non-trivial", () => {
    expect(expected.turns.length).toBeGreaterThan(3);
    expect(expected.findings.length).toBeGreaterThan(3);
  });

  it.each([1, 2, 3, 42, 2026])("shuffled with seed %i", (seed) => {
    expect(json(rebuild(shuffled(events, seed)))).toStrictEqual(expected);
  });

  it.each([7, 8])("shuffled with exact duplicates (seed %i)", (seed) => {
    const repeated: TEvent[] = [...events, ...shuffled(events, seed).slice(0, Math.ceil(events.length / 2)), events[0]];
    expect(json(rebuild(shuffled(repeated, seed)))).toStrictEqual(expected);
  });

  it("run.started is first and run.ended last whatever their ts", () => {
    const raws = richRun().raw();
    raws[0].ts = "2030-01-01T00:00:00Z";
    raws[raws.length - 1].ts = "2020-01-01T00:00:00+05:00";
    const moved = raws.map((raw) => ZEvent.parse(raw));
    expect(json(rebuild(shuffled(moved, 9)))).toStrictEqual(expected);
  });

  it("duplicates whose JSON differs only in key order are the same event", () => {
    const raws = richRun().raw();
    const reordered = raws.map((raw) => {
      const body = raw.body as Record<string, unknown>;
      const flipped = Object.fromEntries(Object.entries(body).reverse());
      return ZEvent.parse(Object.fromEntries(Object.entries({ ...raw, body: flipped }).reverse()));
    });
    expect(json(rebuild(shuffled([...events, ...reordered], 5)))).toStrictEqual(expected);
  });
});
