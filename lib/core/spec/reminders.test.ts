/** R4–R10: presentation order, notices and the ledger, states, suggestions, fitting, statuses. */
import { describe, expect, it } from "vitest";
import type { TCopy, TPolicyInput } from "@/lib/contracts";
import { rebuild } from "@/lib/core/index";
import { defaultCopyTable, fillTemplate } from "@/lib/testing/contract-text";
import {
  at,
  CTX,
  EDITS,
  json,
  REQ,
  reminderTable,
  run,
  shortReminders,
  TIME,
  turnOf,
  utf8,
  type RunBuilder,
  type TurnBuilder,
} from "./builders";

/** A run from a list of turn fillers, numbered from `first`. */
function turns(policy: TPolicyInput, fillers: ((t: TurnBuilder) => unknown)[], first = 1, copy?: TCopy): RunBuilder {
  const b = run({ policy, copy });
  fillers.forEach((fill, i) => b.turn(first + i, fill));
  return b;
}

describe("R4 presentation order and coexistence", () => {
  const all = {
    requests: REQ,
    time: { limitMs: 1_800_000, stages: [0.5] },
    context: CTX,
    edits: EDITS,
    review: { everyTurns: 1 },
  };

  const cases = [
    {
      name: "requests, time, context, edits by blockId in code-point order, review",
      blocks: ["b2", "a", "B", "b10"],
      expected: [
        "requests s1 delivered",
        "time s1 delivered",
        "context s1 delivered",
        "edits/B s1 delivered",
        "edits/a s1 delivered",
        "edits/b10 s1 delivered",
        "edits/b2 s1 delivered",
        "review s1 delivered",
      ],
    },
    {
      name: "code points, not UTF-16 code units: U+FF5E sorts before U+1F600",
      blocks: ["\u{1F600}", "\uFF5E"],
      expected: [
        "requests s1 delivered",
        "time s1 delivered",
        "context s1 delivered",
        "edits/\uFF5E s1 delivered",
        "edits/\u{1F600} s1 delivered",
        "review s1 delivered",
      ],
    },
  ];

  it.each(cases)("$name", ({ blocks, expected }) => {
    const d = json(
      rebuild(
        run({ policy: all })
          .turn(1, (t) => {
            t.requests(18).time(900_000);
            for (const id of blocks) t.block(id, 2);
            t.final(7000).ok();
          })
          .events(),
      ),
    );
    expect(shortReminders(d, 1)).toEqual(expected);
    // meters.edits follows the same code-point order
    expect(turnOf(d, 1).meters.edits?.map((m) => m.blockId)).toEqual(
      expected.filter((s) => s.startsWith("edits/")).map((s) => s.slice(6, s.indexOf(" "))),
    );
  });

  it("no key suppresses another: with no room every candidate is still listed (dropped)", () => {
    const d = json(
      rebuild(
        run({ policy: { ...all, context: { capacityBytes: 10_000, stages: [0.99] } } })
          .turn(1, (t) => t.requests(18).time(900_000).block("b1", 2).final(10_000).ok())
          .events(),
      ),
    );
    expect(shortReminders(d, 1)).toEqual([
      "requests s1 dropped",
      "time s1 dropped",
      "context s1 dropped",
      "edits/b1 s1 dropped",
      "review s1 dropped",
    ]);
  });

  it("kinds: notice for requests/time/context, state for edits, suggestion for review", () => {
    const d = json(
      rebuild(
        run({ policy: all })
          .turn(1, (t) => t.requests(18).time(900_000).block("b1", 2).final(7000).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 1).reminders.map((r) => [r.key, r.kind])).toEqual([
      ["requests", "notice"],
      ["time", "notice"],
      ["context", "notice"],
      ["edits", "state"],
      ["review", "suggestion"],
    ]);
  });
});

describe("R5 notices: ledger, and a meter that fell is noticed again when it rises", () => {
  const cases = [
    {
      name: "context after a compaction: fell from 2 to 1, rises to 2 again → noticed",
      fillers: [
        (t: TurnBuilder) => t.final(9000).ok(),
        (t: TurnBuilder) => t.compaction(9000, 7500, "adopted").final(7500).ok(),
        (t: TurnBuilder) => t.final(9000).ok(),
      ],
      expected: { 1: ["context s2 delivered"], 2: [], 3: ["context s2 delivered"] },
    },
    {
      name: "no fall: the same stage is never noticed twice",
      fillers: [(t: TurnBuilder) => t.final(9000).ok(), (t: TurnBuilder) => t.final(8900).ok(), (t: TurnBuilder) => t.final(9000).ok()],
      expected: { 1: ["context s2 delivered"], 2: [], 3: [] },
    },
    {
      name: "fell to 0, rises to 1 → noticed at 1 (below the earlier 3)",
      fillers: [
        (t: TurnBuilder) => t.final(9600).ok(),
        (t: TurnBuilder) => t.compaction(9600, 5000, "adopted").final(5000).ok(),
        (t: TurnBuilder) => t.final(7000).ok(),
      ],
      expected: { 1: ["context s3 delivered"], 2: [], 3: ["context s1 delivered"] },
    },
    {
      name: "the fall counts whatever the turn's outcome (failed)",
      fillers: [
        (t: TurnBuilder) => t.final(9000).ok(),
        (t: TurnBuilder) => t.final(7500).submitted("failed"),
        (t: TurnBuilder) => t.final(9000).ok(),
      ],
      expected: { 1: ["context s2 delivered"], 2: [], 3: ["context s2 delivered"] },
    },
    {
      name: "the fall counts whatever the turn's outcome (no submission)",
      fillers: [(t: TurnBuilder) => t.final(9000).ok(), (t: TurnBuilder) => t.final(7500), (t: TurnBuilder) => t.final(9000).ok()],
      expected: { 1: ["context s2 delivered"], 2: [], 3: ["context s2 delivered"] },
    },
  ];
  it.each(cases)("$name", ({ fillers, expected }) => {
    expect(reminderTable(rebuild(turns({ context: CTX }, fillers).events()))).toEqual(expected);
  });

  it("requests: a stage in the ledger is not noticed again; the next stage is", () => {
    const b = turns({ requests: REQ }, [
      (t) => t.requests(18).final(10).ok(),
      (t) => t.requests(19).final(10).ok(),
      (t) => t.requests(27).final(10).ok(),
    ]);
    expect(reminderTable(rebuild(b.events()))).toEqual({ 1: ["requests s1 delivered"], 2: [], 3: ["requests s2 delivered"] });
  });

  it("time: each stage once", () => {
    const b = turns({ time: TIME }, [
      (t) => t.time(900_000).final(10).ok(),
      (t) => t.time(1_000_000).final(10).ok(),
      (t) => t.time(1_700_000).final(10).ok(),
    ]);
    expect(reminderTable(rebuild(b.events()))).toEqual({ 1: ["time s1 delivered"], 2: [], 3: ["time s3 delivered"] });
  });
});

describe("R6 edits states every turn; exhausted template", () => {
  // The default copy's edits templates, as contract §5's table writes them.
  const edits = defaultCopyTable().edits!;
  const exhausted = fillTemplate(edits.exhausted, { blockId: "b1" });

  it("a block at stage >= 1 gets a state every turn, delivered or not before; stage 0 never", () => {
    const b = turns({ edits: EDITS }, [
      (t) => t.block("b1", 1).final(10).ok(),
      (t) => t.block("b1", 2).final(10).ok(),
      (t) => t.final(10).ok(),
      (t) => t.block("b1", 4).final(10).ok(),
      (t) => t.final(10).ok(),
    ]);
    const d = json(rebuild(b.events()));
    expect(reminderTable(d)).toEqual({
      1: [],
      2: ["edits/b1 s1 delivered"],
      3: ["edits/b1 s1 delivered"],
      4: ["edits/b1 s2 delivered"],
      5: ["edits/b1 s2 delivered"],
    });
    expect(turnOf(d, 2).reminders[0].text).toBe(fillTemplate(edits["*"], { blockId: "b1", used: 2, limit: 4, remaining: 2 }));
    expect(turnOf(d, 4).reminders[0].text).toBe(exhausted);
    expect(turnOf(d, 5).reminders[0].text).toBe(exhausted);
  });

  const cases = [
    { name: "used = limit is exhausted", stages: [0.5, 1], used: 4, stage: 2, text: exhausted },
    { name: "used > limit is exhausted", stages: [0.5, 1], used: 5, stage: 2, text: exhausted },
    {
      name: "the highest stage without used >= limit is not exhausted",
      stages: [0.5, 0.75],
      used: 3,
      stage: 2,
      text: fillTemplate(edits["*"], { blockId: "b1", used: 3, limit: 4, remaining: 1 }),
    },
  ];
  it.each(cases)("$name", ({ stages, used, stage, text }) => {
    const d = json(
      rebuild(
        run({ policy: { edits: { perBlockLimit: 4, stages } } })
          .turn(1, (t) => t.block("b1", used).final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 1).reminders.map((r) => [r.stage, r.text])).toEqual([[stage, text]]);
  });

  it("the edits state is not in the ledger: even uncertain or delivered ones come back", () => {
    const b = turns({ edits: EDITS }, [
      (t) => t.block("b1", 2).final(10).submitted("uncertain"),
      (t) => t.final(10).ok(),
      (t) => t.final(10).ok(),
    ]);
    expect(reminderTable(rebuild(b.events()))).toEqual({
      1: ["edits/b1 s1 uncertain"],
      2: ["edits/b1 s1 delivered"],
      3: ["edits/b1 s1 delivered"],
    });
  });
});

describe("R7 review checkpoints", () => {
  const cases = [
    {
      name: "everyTurns 10: turn 9 none, turn 10 k=1, turn 11 none (ledger), turn 20 k=2",
      policy: { review: { everyTurns: 10 } },
      turns: [
        [9, (t: TurnBuilder) => t.final(10).ok()],
        [10, (t: TurnBuilder) => t.final(10).ok()],
        [11, (t: TurnBuilder) => t.final(10).ok()],
        [20, (t: TurnBuilder) => t.final(10).ok()],
      ],
      expected: { 9: [], 10: ["review s1 delivered"], 11: [], 20: ["review s2 delivered"] },
    },
    {
      name: "turn 0 is checkpoint 0: no suggestion",
      policy: { review: { everyTurns: 1 } },
      turns: [[0, (t: TurnBuilder) => t.final(10).ok()]],
      expected: { 0: [] },
    },
    {
      name: "afterMs uses the time reading even without a time section",
      policy: { review: { afterMs: 600_000 } },
      turns: [[1, (t: TurnBuilder) => t.time(1_200_000).final(10).ok()]],
      expected: { 1: ["review s2 delivered"] },
    },
    {
      name: "afterMs without any time reading: the term is left out, k = 0",
      policy: { review: { afterMs: 600_000 } },
      turns: [[1, (t: TurnBuilder) => t.final(10).ok()]],
      expected: { 1: [] },
    },
    {
      name: "afterMs just below: 599999 ms is k = 0",
      policy: { review: { afterMs: 600_000 } },
      turns: [[1, (t: TurnBuilder) => t.time(599_999).final(10).ok()]],
      expected: { 1: [] },
    },
    {
      name: "k is the larger of both terms",
      policy: { review: { everyTurns: 10, afterMs: 600_000 } },
      turns: [
        [10, (t: TurnBuilder) => t.time(1_800_000).final(10).ok()],
        [20, (t: TurnBuilder) => t.time(1_900_000).final(10).ok()],
        [40, (t: TurnBuilder) => t.time(1_900_000).final(10).ok()],
      ],
      expected: { 10: ["review s3 delivered"], 20: [], 40: ["review s4 delivered"] },
    },
    {
      name: "a time reading of an earlier turn still counts",
      policy: { review: { afterMs: 600_000 } },
      turns: [
        [1, (t: TurnBuilder) => t.time(500_000).final(10).ok()],
        [2, (t: TurnBuilder) => t.final(10).ok()],
        [3, (t: TurnBuilder) => t.time(650_000).final(10)],
        [4, (t: TurnBuilder) => t.final(10).ok()],
      ],
      expected: { 1: [], 2: [], 3: ["review s1 pending"], 4: ["review s1 delivered"] },
    },
    {
      name: "no review section: never a suggestion",
      policy: { time: TIME },
      turns: [[100, (t: TurnBuilder) => t.time(1_800_000).final(10).ok()]],
      expected: { 100: ["time s3 delivered"] },
    },
  ] as const;

  it.each(cases)("$name", ({ policy, turns: ts, expected }) => {
    const b = run({ policy });
    for (const [n, fill] of ts) b.turn(n, fill);
    expect(reminderTable(rebuild(b.events()))).toEqual(expected);
  });

  it("the suggestion text uses {checkpoint} and {turn}", () => {
    const d = json(
      rebuild(
        run({ policy: { review: { everyTurns: 5 } }, copy: { review: { "*": "turn {turn}, checkpoint {checkpoint}" } } })
          .turn(12, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 12).reminders.map((r) => [r.kind, r.stage, r.text, r.subject])).toEqual([
      ["suggestion", 2, "turn 12, checkpoint 2", null],
    ]);
  });
});

describe("R8 render then fit: bytes = UTF-8 length + 1, first fit", () => {
  // Edits states whose text is the blockId: each costs utf8(blockId) + 1.
  const fitPolicy = (capacityBytes: number) => ({
    context: { capacityBytes, stages: [5] },
    edits: { perBlockLimit: 4, stages: [0.5] },
  });
  const copy: TCopy = { edits: { "*": "{blockId}" } };

  const cases = [
    {
      name: "a cost equal to the free bytes fits",
      capacity: 100,
      required: 90,
      blocks: ["aaaaaaaaa"],
      expected: [["aaaaaaaaa", 10, "delivered", undefined]],
      after: 0,
    },
    {
      name: "one byte more is dropped with the free bytes at that moment",
      capacity: 100,
      required: 90,
      blocks: ["aaaaaaaaaa"],
      expected: [["aaaaaaaaaa", 11, "dropped", 10]],
      after: 10,
    },
    {
      name: "first fit: fitting continues after a drop",
      capacity: 100,
      required: 90,
      blocks: ["a-long-name", "b", "c-1234567"],
      expected: [
        ["a-long-name", 12, "dropped", 10],
        ["b", 2, "delivered", undefined],
        ["c-1234567", 10, "dropped", 8],
      ],
      after: 8,
    },
    {
      name: "é is 2 UTF-8 bytes: 'é' costs 3 and fits in 3",
      capacity: 100,
      required: 97,
      blocks: ["é"],
      expected: [["é", 3, "delivered", undefined]],
      after: 0,
    },
    {
      name: "é is 2 UTF-8 bytes: 'é' does not fit in 2",
      capacity: 100,
      required: 98,
      blocks: ["é"],
      expected: [["é", 3, "dropped", 2]],
      after: 2,
    },
    {
      name: "an emoji is 4 UTF-8 bytes (2 UTF-16 units): costs 5, not 3",
      capacity: 100,
      required: 96,
      blocks: ["\u{1F600}"],
      expected: [["\u{1F600}", 5, "dropped", 4]],
      after: 4,
    },
    {
      name: "free bytes 0 drop everything",
      capacity: 100,
      required: 100,
      blocks: ["a"],
      expected: [["a", 2, "dropped", 0]],
      after: 0,
    },
    {
      name: "negative free bytes drop everything and stay negative",
      capacity: 100,
      required: 150,
      blocks: ["a", "b"],
      expected: [
        ["a", 2, "dropped", -50],
        ["b", 2, "dropped", -50],
      ],
      after: -50,
    },
  ] as const;

  it.each(cases)("$name", ({ capacity, required, blocks, expected, after }) => {
    const d = json(
      rebuild(
        run({ policy: fitPolicy(capacity), copy })
          .turn(1, (t) => {
            for (const id of blocks) t.block(id, 2);
            t.final(required).ok();
          })
          .events(),
      ),
    );
    const turn = turnOf(d, 1);
    expect(turn.reminders.map((r) => [r.text, r.bytes, r.status, r.freeBytes])).toEqual(expected);
    for (const r of turn.reminders) {
      if (r.status === "dropped") expect(r.dropReason).toBe("capacity");
      else {
        expect("dropReason" in r).toBe(false);
        expect("freeBytes" in r).toBe(false);
      }
    }
    expect(turn.freeBytesAfter).toBe(after);
    expect(turn.capacityBytes).toBe(capacity);
    expect(turn.requiredBytes).toBe(required);
  });

  it("bytes of multibyte copy text: 'é😀' + stage", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: { limit: 10, stages: [0.1] } }, copy: { requests: { "*": "é\u{1F600}{stage}" } } })
          .turn(1, (t) => t.requests(1).final(10).ok())
          .events(),
      ),
    );
    const [r] = turnOf(d, 1).reminders;
    expect(r.text).toBe("é\u{1F600}1");
    expect(r.bytes).toBe(utf8("é\u{1F600}1") + 1);
    expect(r.bytes).toBe(8);
  });

  it("without a context section free bytes are infinite: everything fits, capacity and freeBytesAfter null", () => {
    const long = "x".repeat(5000);
    const d = json(
      rebuild(
        run({ policy: { edits: { perBlockLimit: 4, stages: [0.5] } }, copy })
          .turn(1, (t) => t.block(long, 2).block("y", 2).final(1_000_000).ok())
          .events(),
      ),
    );
    const turn = turnOf(d, 1);
    expect(turn.capacityBytes).toBeNull();
    expect(turn.freeBytesAfter).toBeNull();
    expect(turn.requiredBytes).toBe(1_000_000);
    expect(turn.reminders.map((r) => [r.bytes, r.status])).toEqual([
      [5001, "delivered"],
      [2, "delivered"],
    ]);
  });

  it("the context notice itself is fitted like any other reminder", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ, context: CTX }, copy: { context: { "*": "C{stage}" }, requests: { "*": "R{stage}" } } })
          .turn(1, (t) => t.requests(18).final(9997).ok())
          .events(),
      ),
    );
    // free 3: "R1" (3) fits, "C3" (3) is dropped with 0 left
    expect(turnOf(d, 1).reminders.map((r) => [r.key, r.status, r.freeBytes])).toEqual([
      ["requests", "delivered", undefined],
      ["context", "dropped", 0],
    ]);
    expect(turnOf(d, 1).freeBytesAfter).toBe(0);
  });
});

describe("R9 the final request is measured, never a compaction candidate", () => {
  const cases = [
    {
      name: "rolled back: stage and fitting use the final (original) requiredBytes",
      fill: (t: TurnBuilder) => t.compaction(9000, 6000, "rolled_back").final(9000).ok(),
      required: 9000,
      stage: 2,
      after: 1000 - 3,
    },
    {
      name: "adopted: the final request is the compacted one",
      fill: (t: TurnBuilder) => t.compaction(9000, 6000, "adopted").final(6000).ok(),
      required: 6000,
      stage: 0,
      after: 4000,
    },
  ];
  it.each(cases)("$name", ({ fill, required, stage, after }) => {
    const d = json(
      rebuild(
        run({ policy: { context: CTX }, copy: { context: { "*": "C{stage}" } } })
          .turn(1, fill)
          .events(),
      ),
    );
    const turn = turnOf(d, 1);
    expect(turn.requiredBytes).toBe(required);
    expect(turn.meters.context?.stage).toBe(stage);
    expect(turn.freeBytesAfter).toBe(after);
    expect(turn.reminders.map((r) => r.stage)).toEqual(stage >= 1 ? [stage] : []);
  });
});

describe("R10 statuses follow the turn's last request.submitted; the ledger takes delivered and uncertain", () => {
  const outcomes = [
    { outcome: "ok", status: "delivered", again: false },
    { outcome: "uncertain", status: "uncertain", again: false },
    { outcome: "failed", status: "failed", again: true },
    { outcome: undefined, status: "pending", again: true },
  ] as const;

  it.each(outcomes)("requests notice, outcome $outcome → $status; noticed again next turn: $again", ({ outcome, status, again }) => {
    const b = turns({ requests: REQ }, [
      (t) => {
        t.requests(18).final(10);
        if (outcome) t.submitted(outcome);
      },
      (t) => t.final(10).ok(),
    ]);
    expect(reminderTable(rebuild(b.events()))).toEqual({
      1: [`requests s1 ${status}`],
      2: again ? ["requests s1 delivered"] : [],
    });
  });

  it.each(outcomes)("review suggestion, outcome $outcome → $status; suggested again next turn: $again", ({ outcome, status, again }) => {
    const b = turns(
      { review: { everyTurns: 10 } },
      [
        (t) => {
          t.final(10);
          if (outcome) t.submitted(outcome);
        },
        (t) => t.final(10).ok(),
      ],
      10,
    );
    expect(reminderTable(rebuild(b.events()))).toEqual({
      10: [`review s1 ${status}`],
      11: again ? ["review s1 delivered"] : [],
    });
  });

  it.each(["ok", "failed", "uncertain"] as const)(
    "a dropped reminder is dropped whatever the outcome (%s) and leaves the ledger",
    (outcome) => {
      const b = run({ policy: { requests: REQ, context: { capacityBytes: 100, stages: [5] } } })
        .turn(1, (t) => t.requests(18).final(100).submitted(outcome))
        .turn(2, (t) => t.final(0).ok());
      expect(reminderTable(rebuild(b.events()))).toEqual({ 1: ["requests s1 dropped"], 2: ["requests s1 delivered"] });
    },
  );

  const lastCases = [
    {
      name: "failed then ok → delivered",
      fill: (t: TurnBuilder) => t.submitted("failed").submitted("ok"),
      status: "delivered",
    },
    {
      name: "ok then failed → failed",
      fill: (t: TurnBuilder) => t.submitted("ok").submitted("failed"),
      status: "failed",
    },
    {
      name: "ok then uncertain → uncertain",
      fill: (t: TurnBuilder) => t.submitted("ok").submitted("uncertain"),
      status: "uncertain",
    },
    {
      name: "last in run order by ts, not by emission",
      fill: (t: TurnBuilder) => t.submitted("ok", undefined, { ts: at(500) }).submitted("failed", undefined, { ts: at(400) }),
      status: "delivered",
    },
    {
      name: "ts compared as instants: 11:00:30+01:00 is before 10:00:40Z",
      fill: (t: TurnBuilder) =>
        t.submitted("failed", undefined, { ts: "2026-11-29T10:00:40Z" }).submitted("ok", undefined, { ts: "2026-11-29T11:00:30+01:00" }),
      status: "failed",
    },
    {
      name: "ts beyond the millisecond keep their order (.0000002 after .0000001)",
      fill: (t: TurnBuilder) =>
        t
          .submitted("failed", undefined, { ts: "2026-11-29T10:00:40.0000002Z" })
          .submitted("ok", undefined, { ts: "2026-11-29T10:00:40.0000001Z" }),
      status: "failed",
    },
    {
      name: "same ts: ids break the tie in code-point order (e-10 < e-9)",
      fill: (t: TurnBuilder) =>
        t.submitted("failed", undefined, { ts: at(500), id: "e-9" }).submitted("ok", undefined, { ts: at(500), id: "e-10" }),
      status: "failed",
    },
  ];
  it.each(lastCases)("$name", ({ fill, status }) => {
    const d = rebuild(
      run({ policy: { requests: REQ } })
        .turn(1, (t) => fill(t.requests(18).final(10)))
        .events(),
    );
    expect(shortReminders(d, 1)).toEqual([`requests s1 ${status}`]);
  });

  it("a turn with a request.final but no submission is rebuilt, its reminders pending", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ, edits: EDITS } })
          .turn(1, (t) => t.requests(18).block("b1", 2).final(10))
          .events(),
      ),
    );
    expect(shortReminders(d, 1)).toEqual(["requests s1 pending", "edits/b1 s1 pending"]);
  });
});
