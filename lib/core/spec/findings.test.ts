/** Contract §7: every finding code fires where it should and not where it should not; finding order. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FINDING_CODES, type TPolicyInput } from "@/lib/contracts";
import { rebuild } from "@/lib/core/index";
import { at, CTX, EDITS, findingTurns, json, REQ, rem, run, type RunBuilder } from "./builders";

/** requests stage 1 at turn 1 (18/36), block b1 at stage 1 when asked; plenty of room. */
const P: TPolicyInput = { requests: REQ, context: CTX, edits: EDITS };

interface Case {
  name: string;
  policy?: TPolicyInput;
  build: (b: RunBuilder) => unknown;
  turns: (number | null)[];
}

function check(code: string, cases: Case[]) {
  describe(code, () => {
    it.each(cases)("$name", ({ policy, build, turns }) => {
      const b = run({ policy: policy ?? P });
      build(b);
      expect(findingTurns(json(rebuild(b.events())), code)).toEqual(turns);
    });
  });
}

describe("§7 finding codes", () => {
  check("INCOMPLETE_TURN", [
    { name: "a turn with events but no request.final", build: (b) => b.turn(2, (t) => t.requests(20).ok()), turns: [2] },
    { name: "a turn with a request.final", build: (b) => b.turn(2, (t) => t.requests(20).final(10)), turns: [] },
    {
      name: "a turn that carries only a late model.action",
      build: (b) => b.turn(1, (t) => t.final(10).ok()).turn(2, (t) => t.action("finalize")),
      turns: [2],
    },
    {
      name: "a turn that carries only a late reviewer.completed",
      build: (b) => b.turn(1, (t) => t.final(10).ok().dispatched("c", "d")).turn(2, (t) => t.completed("d")),
      turns: [2],
    },
    { name: "turns without any event do not exist", build: (b) => b.turn(7, (t) => t.final(10).ok()), turns: [] },
  ]);

  check("MISSING_REMINDER", [
    { name: "included, not in the agent's list", build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok([])), turns: [1] },
    {
      name: "included with status failed counts as included",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).submitted("failed", [])),
      turns: [1],
    },
    {
      name: "one finding per missing item",
      build: (b) => b.turn(1, (t) => t.requests(18).block("b1", 2).final(10).ok([])),
      turns: [1, 1],
    },
    {
      name: "in the agent's list (subject absent = null)",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1)]),
        ),
      turns: [],
    },
    {
      name: "in the agent's list with subject null",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1, null)]),
        ),
      turns: [],
    },
    {
      name: "in the agent's list at another stage is not missing",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 2)]),
        ),
      turns: [],
    },
    { name: "no list recorded: no comparison", build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok()), turns: [] },
    {
      name: "the last submission carries no list (an earlier one did): no comparison",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10).ok([]).ok()),
      turns: [],
    },
    {
      name: "a dropped reminder is not expected in the list",
      build: (b) => b.turn(1, (t) => t.requests(18).final(10_000).ok([])),
      policy: { requests: REQ, context: { capacityBytes: 10_000, stages: [5] } },
      turns: [],
    },
    {
      name: "compared with the last submission (a reminder_resend)",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1)])
            .ok([], { purpose: "reminder_resend" }),
        ),
      turns: [1],
    },
  ]);

  check("UNEXPECTED_REMINDER", [
    {
      name: "in the list, not included by the rebuild",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1), rem("time", 1)]),
        ),
      turns: [1],
    },
    {
      name: "in the list, but dropped by the rebuild",
      policy: { requests: REQ, context: { capacityBytes: 10_000, stages: [5] } },
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10_000)
            .ok([rem("requests", 1)]),
        ),
      turns: [1],
    },
    {
      name: "another subject of the same key",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .block("b1", 2)
            .final(10)
            .ok([rem("edits", 1, "b2")]),
        ),
      turns: [1],
    },
    {
      name: "the list matches",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .block("b1", 2)
            .final(10)
            .ok([rem("edits", 1, "b1"), rem("requests", 1)]),
        ),
      turns: [],
    },
    { name: "no list recorded", build: (b) => b.turn(1, (t) => t.final(10).ok()), turns: [] },
    {
      name: "a notice already delivered earlier is unexpected when listed again",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .ok([rem("requests", 1)]),
          )
          .turn(2, (t) => t.final(10).ok([rem("requests", 1)])),
      turns: [2],
    },
  ]);

  check("STAGE_MISMATCH", [
    {
      name: "included by both at different stages",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 2)]),
        ),
      turns: [1],
    },
    {
      name: "same stage",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1)]),
        ),
      turns: [],
    },
    {
      name: "duplicated pair: the agent's highest stage differs",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1), rem("requests", 2)]),
        ),
      turns: [1],
    },
    {
      name: "duplicated pair: the agent's highest stage matches",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(27)
            .final(10)
            .ok([rem("requests", 1), rem("requests", 2)]),
        ),
      turns: [],
    },
    {
      name: "only in the agent's list: no stage comparison",
      build: (b) => b.turn(1, (t) => t.final(10).ok([rem("requests", 3)])),
      turns: [],
    },
    {
      name: "dropped by the rebuild: not included by both",
      policy: { requests: REQ, context: { capacityBytes: 10_000, stages: [5] } },
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10_000)
            .ok([rem("requests", 2)]),
        ),
      turns: [],
    },
  ]);

  check("DUPLICATE_REMINDER", [
    {
      name: "a pair twice",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1), rem("requests", 1)]),
        ),
      turns: [1],
    },
    {
      name: "a pair three times: one finding",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1), rem("requests", 1), rem("requests", 2)]),
        ),
      turns: [1],
    },
    {
      name: "two duplicated pairs: two findings",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .block("b1", 2)
            .final(10)
            .ok([rem("requests", 1), rem("edits", 1, "b1"), rem("requests", 1), rem("edits", 1, "b1")]),
        ),
      turns: [1, 1],
    },
    {
      name: "the same pair at different stages",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(27)
            .final(10)
            .ok([rem("requests", 1), rem("requests", 2)]),
        ),
      turns: [1],
    },
    {
      name: "subject absent and subject null are the same pair",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1), rem("requests", 1, null)]),
        ),
      turns: [1],
    },
    {
      name: "same key, different subjects",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .block("b1", 2)
            .block("b2", 2)
            .final(10)
            .ok([rem("edits", 1, "b1"), rem("edits", 1, "b2")]),
        ),
      turns: [],
    },
    {
      name: "different keys",
      build: (b) => b.turn(1, (t) => t.final(10).ok([rem("requests", 1), rem("time", 1)])),
      turns: [],
    },
  ]);

  check("MARKED_NOT_SUBMITTED", [
    {
      name: "marked, not in the list",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([])
            .marked([rem("requests", 1)]),
        ),
      turns: [1],
    },
    {
      name: "marked at another stage than listed",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1)])
            .marked([rem("requests", 2)]),
        ),
      turns: [1],
    },
    {
      name: "no submission: every entry",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .block("b1", 2)
            .final(10)
            .marked([rem("requests", 1), rem("edits", 1, "b1")]),
        ),
      turns: [1, 1],
    },
    {
      name: "submission failed: every entry, even listed ones",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .submitted("failed", [rem("requests", 1)])
            .marked([rem("requests", 1)]),
        ),
      turns: [1],
    },
    {
      name: "submission failed without a list",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .submitted("failed")
            .marked([rem("requests", 1)]),
        ),
      turns: [1],
    },
    {
      name: "one finding per entry over several marked events",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .block("b1", 2)
            .final(10)
            .ok([])
            .marked([rem("requests", 1)])
            .marked([rem("edits", 1, "b1")]),
        ),
      turns: [1, 1],
    },
    {
      name: "one finding per entry, even repeated entries",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([])
            .marked([rem("requests", 1), rem("requests", 1)]),
        ),
      turns: [1, 1],
    },
    {
      name: "the last submission is the one checked",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1)])
            .ok([])
            .marked([rem("requests", 1)]),
        ),
      turns: [1],
    },
    {
      name: "marked and listed (ok)",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1)])
            .marked([rem("requests", 1)]),
        ),
      turns: [],
    },
    {
      name: "marked and listed (uncertain)",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .submitted("uncertain", [rem("requests", 1)])
            .marked([rem("requests", 1)]),
        ),
      turns: [],
    },
    {
      name: "ok submission without a list: not checked",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok()
            .marked([rem("requests", 1)]),
        ),
      turns: [],
    },
    {
      name: "subject absent in marked matches subject null in the list",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .requests(18)
            .final(10)
            .ok([rem("requests", 1, null)])
            .marked([rem("requests", 1)]),
        ),
      turns: [],
    },
  ]);

  // Final 9000 (stage 2 of [0.7, 0.85, 0.95]); candidate 7000 would be stage 1.
  check("CONTEXT_FROM_ABANDONED_CANDIDATE", [
    {
      name: "rolled back, agent's context stage is the candidate's",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "rolled_back")
            .final(9000)
            .ok([rem("context", 1)]),
        ),
      turns: [1],
    },
    {
      name: "at most one per turn",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "rolled_back")
            .final(9000)
            .ok([rem("context", 1), rem("context", 1)]),
        ),
      turns: [1],
    },
    {
      name: "the agent's highest context stage is compared",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "rolled_back")
            .final(9000)
            .ok([rem("context", 1), rem("context", 2)]),
        ),
      turns: [],
    },
    {
      name: "agent's stage is the final request's",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "rolled_back")
            .final(9000)
            .ok([rem("context", 2)]),
        ),
      turns: [],
    },
    {
      name: "adopted compaction",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "adopted")
            .final(9000)
            .ok([rem("context", 1)]),
        ),
      turns: [],
    },
    {
      name: "the last compaction of the turn was adopted",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "rolled_back")
            .compaction(9000, 7100, "adopted")
            .final(9000)
            .ok([rem("context", 1)]),
        ),
      turns: [],
    },
    {
      name: "the last compaction of the turn was rolled back",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7100, "adopted")
            .compaction(9000, 7000, "rolled_back")
            .final(9000)
            .ok([rem("context", 1)]),
        ),
      turns: [1],
    },
    {
      name: "candidate and final at the same stage",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 8600, "rolled_back")
            .final(9000)
            .ok([rem("context", 2)]),
        ),
      turns: [],
    },
    {
      name: "no context in the agent's list",
      build: (b) => b.turn(1, (t) => t.compaction(9000, 7000, "rolled_back").final(9000).ok([])),
      turns: [],
    },
    {
      name: "no list recorded",
      build: (b) => b.turn(1, (t) => t.compaction(9000, 7000, "rolled_back").final(9000).ok()),
      turns: [],
    },
    {
      name: "no context section",
      policy: { requests: REQ },
      build: (b) =>
        b.turn(1, (t) =>
          t
            .compaction(9000, 7000, "rolled_back")
            .final(9000)
            .ok([rem("context", 1)]),
        ),
      turns: [],
    },
  ]);

  check("FREE_REQUEST", [
    {
      name: "countsAgainstBudget false",
      build: (b) => b.turn(1, (t) => t.final(10).ok(undefined, { countsAgainstBudget: false })),
      turns: [1],
    },
    {
      name: "any submission, not only the last; one per event",
      build: (b) =>
        b.turn(1, (t) =>
          t.final(10).ok(undefined, { countsAgainstBudget: false }).submitted("failed", undefined, { countsAgainstBudget: false }).ok(),
        ),
      turns: [1, 1],
    },
    {
      name: "countsAgainstBudget true or absent",
      build: (b) => b.turn(1, (t) => t.final(10).ok(undefined, { countsAgainstBudget: true }).ok()),
      turns: [],
    },
  ]);

  check("REMINDER_RESEND", [
    {
      name: "purpose reminder_resend (any submission)",
      build: (b) => b.turn(1, (t) => t.final(10).ok(undefined, { purpose: "reminder_resend" }).ok(undefined, { purpose: "turn" })),
      turns: [1],
    },
    {
      name: "purpose retry or turn",
      build: (b) => b.turn(1, (t) => t.final(10).ok(undefined, { purpose: "retry" }).ok(undefined, { purpose: "turn" })),
      turns: [],
    },
  ]);

  check("UNCERTAIN_RESENT", [
    {
      name: "uncertain notice listed again in turn t+1: finding on t+1",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1)]),
          )
          .turn(2, (t) => t.final(10).ok([rem("requests", 1)])),
      turns: [2],
    },
    {
      name: "uncertain suggestion listed again",
      policy: { review: { everyTurns: 10 } },
      build: (b) =>
        b.turn(10, (t) => t.final(10).submitted("uncertain", [rem("review", 1)])).turn(11, (t) => t.final(10).ok([rem("review", 1)])),
      turns: [11],
    },
    {
      name: "one per entry",
      policy: { requests: REQ, review: { everyTurns: 10 } },
      build: (b) =>
        b
          .turn(10, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1), rem("review", 1)]),
          )
          .turn(11, (t) => t.final(10).ok([rem("review", 1), rem("requests", 1)])),
      turns: [11, 11],
    },
    {
      name: "subject absent in t and null in t+1 are the same entry",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1)]),
          )
          .turn(2, (t) => t.final(10).ok([rem("requests", 1, null)])),
      turns: [2],
    },
    {
      name: "turn t was ok",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .ok([rem("requests", 1)]),
          )
          .turn(2, (t) => t.final(10).ok([rem("requests", 1)])),
      turns: [],
    },
    {
      name: "turn t's last submission was ok after an uncertain one",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1)])
              .ok([rem("requests", 1)]),
          )
          .turn(2, (t) => t.final(10).ok([rem("requests", 1)])),
      turns: [],
    },
    {
      name: "another stage in t+1",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1)]),
          )
          .turn(2, (t) =>
            t
              .requests(27)
              .final(10)
              .ok([rem("requests", 2)]),
          ),
      turns: [],
    },
    {
      name: "an edits state is repeated legitimately",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .block("b1", 2)
              .final(10)
              .submitted("uncertain", [rem("edits", 1, "b1")]),
          )
          .turn(2, (t) => t.final(10).ok([rem("edits", 1, "b1")])),
      turns: [],
    },
    {
      name: "turn t+1 not rebuilt",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1)]),
          )
          .turn(2, (t) => t.ok([rem("requests", 1)])),
      turns: [],
    },
    {
      name: "turn t not rebuilt",
      build: (b) =>
        b.turn(1, (t) => t.requests(18).submitted("uncertain", [rem("requests", 1)])).turn(2, (t) => t.final(10).ok([rem("requests", 1)])),
      turns: [],
    },
    {
      name: "t+2, not t+1",
      build: (b) =>
        b
          .turn(1, (t) =>
            t
              .requests(18)
              .final(10)
              .submitted("uncertain", [rem("requests", 1)]),
          )
          .turn(3, (t) => t.final(10).ok([rem("requests", 1)])),
      turns: [],
    },
  ]);

  check("DISPATCH_WITHOUT_ADMISSION", [
    { name: "no admission at all", build: (b) => b.turn(1, (t) => t.final(10).dispatched("c1", "d1")), turns: [1] },
    {
      name: "admission not granted",
      build: (b) => b.turn(1, (t) => t.final(10).admission("c1", false, ["auto_review_disabled"]).dispatched("c1", "d1")),
      turns: [1],
    },
    {
      name: "granted for another candidate",
      build: (b) => b.turn(1, (t) => t.final(10).admission("c2", true).dispatched("c1", "d1")),
      turns: [1],
    },
    {
      name: "granted after the dispatch in run order",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .final(10)
            .admission("c1", true, [], { ts: at(600) })
            .dispatched("c1", "d1", { ts: at(500) }),
        ),
      turns: [1],
    },
    {
      name: "granted on a later turn",
      build: (b) => b.turn(1, (t) => t.final(10).dispatched("c1", "d1")).turn(2, (t) => t.final(10).admission("c1", true)),
      turns: [1],
    },
    {
      name: "granted before (an earlier turn), with or without a reviewer section",
      build: (b) => b.turn(1, (t) => t.final(10).admission("c1", true)).turn(2, (t) => t.final(10).dispatched("c1", "d1")),
      turns: [],
    },
    {
      name: "granted before, in the same turn",
      build: (b) => b.turn(1, (t) => t.final(10).admission("c1", true).dispatched("c1", "d1")),
      turns: [],
    },
  ]);

  check("CONCURRENT_DISPATCH", [
    {
      name: "a second dispatch while the first is in progress",
      build: (b) =>
        b
          .turn(1, (t) => t.final(10).admission("c1", true).dispatched("c1", "d1"))
          .turn(2, (t) => t.final(10).admission("c2", true).dispatched("c2", "d2")),
      turns: [2],
    },
    {
      name: "a cancellation does not end the first",
      build: (b) =>
        b
          .turn(1, (t) => t.final(10).admission("c1", true).dispatched("c1", "d1").cancelled("c1", "superseded"))
          .turn(2, (t) => t.final(10).admission("c2", true).dispatched("c2", "d2")),
      turns: [2],
    },
    {
      name: "the first completed before",
      build: (b) =>
        b
          .turn(1, (t) => t.final(10).admission("c1", true).dispatched("c1", "d1").completed("d1"))
          .turn(2, (t) => t.final(10).admission("c2", true).dispatched("c2", "d2")),
      turns: [],
    },
    {
      name: "the first completed after the second was dispatched (same turn, run order by ts)",
      build: (b) =>
        b.turn(1, (t) =>
          t
            .final(10)
            .admission("c1", true)
            .admission("c2", true)
            .dispatched("c1", "d1")
            .completed("d1", { ts: at(900) })
            .dispatched("c2", "d2", { ts: at(800) }),
        ),
      turns: [1],
    },
    {
      name: "a single dispatch",
      build: (b) => b.turn(1, (t) => t.final(10).admission("c1", true).dispatched("c1", "d1")),
      turns: [],
    },
  ]);

  const reviewerOn: TPolicyInput = { requests: REQ, reviewer: { autoReviewAllowed: true, minRequestsLeft: 8 } };
  check("ADMISSION_RULE_MISMATCH", [
    {
      name: "granted although auto review is disabled",
      policy: { requests: REQ, reviewer: { autoReviewAllowed: false } },
      build: (b) => b.turn(2, (t) => t.requests(10).final(10).admission("c1", true)),
      turns: [2],
    },
    {
      name: "granted although the budget is insufficient (36 − 30 < 8)",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.requests(30).final(10).admission("c1", true)),
      turns: [2],
    },
    {
      name: "denied although every condition holds",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.requests(10).final(10).admission("c1", false, ["insufficient_budget"])),
      turns: [2],
    },
    {
      name: "granted and every condition holds",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.requests(28).final(10).admission("c1", true)),
      turns: [],
    },
    {
      name: "denied and a condition fails",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.requests(29).final(10).admission("c1", false, ["insufficient_budget"])),
      turns: [],
    },
    {
      name: "no reviewer section: never",
      policy: { requests: REQ },
      build: (b) => b.turn(2, (t) => t.requests(35).final(10).admission("c1", true)),
      turns: [],
    },
    {
      name: "facts of the admission's turn: an earlier turn's reading",
      policy: reviewerOn,
      build: (b) => b.turn(1, (t) => t.requests(30).final(10)).turn(2, (t) => t.final(10).admission("c1", true)),
      turns: [2],
    },
    {
      name: "a reading of a later turn does not count",
      policy: reviewerOn,
      build: (b) =>
        b
          .turn(3, (t) => t.requests(35).final(10))
          .turn(1, (t) => t.requests(10).final(10))
          .turn(2, (t) => t.final(10).admission("c1", true)),
      turns: [],
    },
    {
      name: "a reading of the same turn after the admission in run order counts",
      policy: reviewerOn,
      build: (b) => b.turn(1, (t) => t.requests(10).final(10)).turn(2, (t) => t.admission("c1", true).requests(35).final(10)),
      turns: [2],
    },
    {
      name: "no requests reading: the budget holds",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.final(10).admission("c1", true)),
      turns: [],
    },
    {
      name: "in progress at the admission's own point: a dispatch earlier in the same turn",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.requests(10).final(10).dispatched("c0", "d0").admission("c1", true)),
      turns: [2],
    },
    {
      name: "a dispatch later in the same turn is not in progress at the admission",
      policy: reviewerOn,
      build: (b) => b.turn(2, (t) => t.requests(10).final(10).admission("c1", true).dispatched("c1", "d1")),
      turns: [],
    },
    {
      name: "a dispatch completed before the admission is not in progress",
      policy: reviewerOn,
      build: (b) =>
        b.turn(1, (t) => t.final(10).dispatched("c0", "d0")).turn(2, (t) => t.requests(10).final(10).completed("d0").admission("c1", true)),
      turns: [],
    },
    {
      name: "made on a skipped turn too",
      policy: { reviewer: { autoReviewAllowed: false } },
      build: (b) => b.turn(2, (t) => t.admission("c1", true)),
      turns: [2],
    },
  ]);

  check("CANDIDATE_CANCELLED_BY_DROP", [
    { name: "reason reminder_dropped", build: (b) => b.turn(1, (t) => t.final(10).cancelled("c1", "reminder_dropped")), turns: [1] },
    {
      name: "reason reminder_not_delivered",
      build: (b) => b.turn(1, (t) => t.final(10).cancelled("c1", "reminder_not_delivered")),
      turns: [1],
    },
    { name: "another reason", build: (b) => b.turn(1, (t) => t.final(10).cancelled("c1", "superseded")), turns: [] },
  ]);

  check("GLOBAL_STOP_ON_LOCAL_QUOTA", [
    {
      name: "run.ended with reason edit_quota_exhausted: turn null",
      build: (b) => b.turn(1, (t) => t.final(10).ok()).ended("stopped", "edit_quota_exhausted"),
      turns: [null],
    },
    {
      name: "another reason",
      build: (b) => b.turn(1, (t) => t.final(10).ok()).ended("stopped", "budget_exhausted"),
      turns: [],
    },
    { name: "no reason", build: (b) => b.turn(1, (t) => t.final(10).ok()).ended("completed"), turns: [] },
  ]);
});

describe("§6/§7 finding order: turns ascending, §7 table order within a turn, run-level last", () => {
  it("orders findings regardless of emission order", () => {
    const b = run({ policy: P })
      .ended("stopped", "edit_quota_exhausted")
      .turn(3, (t) => t.cancelled("c9", "reminder_dropped").requests(18))
      .turn(1, (t) =>
        t
          .cancelled("c1", "reminder_not_delivered")
          .dispatched("c1", "d1")
          .ok([rem("time", 1)], { countsAgainstBudget: false, purpose: "reminder_resend" })
          .marked([rem("context", 3)])
          .requests(27)
          .final(10),
      )
      .turn(0, (t) =>
        t
          .requests(18)
          .final(10)
          .ok([rem("requests", 2), rem("requests", 2)]),
      );
    const d = json(rebuild(b.events()));
    expect(d.findings.map((f) => [f.turn, f.code])).toEqual([
      [0, "STAGE_MISMATCH"],
      [0, "DUPLICATE_REMINDER"],
      [1, "MISSING_REMINDER"],
      [1, "UNEXPECTED_REMINDER"],
      [1, "MARKED_NOT_SUBMITTED"],
      [1, "FREE_REQUEST"],
      [1, "REMINDER_RESEND"],
      [1, "DISPATCH_WITHOUT_ADMISSION"],
      [1, "CANDIDATE_CANCELLED_BY_DROP"],
      [3, "INCOMPLETE_TURN"],
      [3, "CANDIDATE_CANCELLED_BY_DROP"],
      [null, "GLOBAL_STOP_ON_LOCAL_QUOTA"],
    ]);
    for (const f of d.findings) {
      expect(typeof f.detail).toBe("string");
      expect(f.detail.length).toBeGreaterThan(0);
    }
  });

  it("FINDING_CODES are the codes of contract §7's table, in the table's order", () => {
    const table = readFileSync(new URL("../../../docs/contract/findings.md", import.meta.url), "utf8");
    const codes = [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(codes).toHaveLength(15);
    expect(FINDING_CODES).toEqual(codes);
  });
});
