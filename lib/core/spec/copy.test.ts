/** Contract §5: template lookup, run copy vs default copy, options overrides, placeholder values. */
import { describe, expect, it } from "vitest";
import type { TCopy, TPolicyInput } from "@/lib/contracts";
import { rebuild } from "@/lib/core/index";
import { defaultCopyTable, fillTemplate } from "@/lib/testing/contract-text";
import { EDITS, json, policy, REQ, run, turnOf, type TurnBuilder } from "./builders";

function texts(p: TPolicyInput, copy: TCopy | undefined, fill: (t: TurnBuilder) => unknown, turn = 1): string[] {
  const d = json(rebuild(run({ policy: p, copy }).turn(turn, fill).events()));
  return turnOf(d, turn).reminders.map((r) => r.text);
}

describe("§5 template lookup: exhausted > exact stage > *", () => {
  const editsCopy: TCopy = { edits: { "*": "star {stage}", "1": "one", "2": "two", exhausted: "ex {blockId}" } };
  const cases = [
    { name: "edits stage 1 uses template '1'", stages: [0.5, 0.75], used: 2, copy: editsCopy, text: "one" },
    { name: "edits stage 2, not exhausted, uses template '2'", stages: [0.5, 0.75], used: 3, copy: editsCopy, text: "two" },
    { name: "edits exhausted uses 'exhausted' before the exact stage", stages: [0.5, 1], used: 4, copy: editsCopy, text: "ex b1" },
    {
      name: "edits exhausted without an 'exhausted' template falls to the exact stage",
      stages: [0.5, 1],
      used: 4,
      copy: { edits: { "*": "star", "2": "two" } },
      text: "two",
    },
    {
      name: "edits exhausted with neither falls to '*'",
      stages: [0.5, 1],
      used: 4,
      copy: { edits: { "*": "star {stage}" } },
      text: "star 2",
    },
    {
      name: "edits stage with no exact template uses '*'",
      stages: [0.25, 0.5, 0.75],
      used: 3,
      copy: editsCopy,
      text: "star 3",
    },
  ];
  it.each(cases)("$name", ({ stages, used, copy, text }) => {
    expect(texts({ edits: { perBlockLimit: 4, stages } }, copy, (t) => t.block("b1", used).final(10).ok())).toEqual([text]);
  });

  const stageCases = [
    { name: "requests stage 3 uses template '3'", used: 33, text: "three" },
    { name: "requests stage 2 without a '2' template uses '*'", used: 27, text: "any 2" },
  ];
  it.each(stageCases)("$name", ({ used, text }) => {
    expect(texts({ requests: REQ }, { requests: { "*": "any {stage}", "3": "three" } }, (t) => t.requests(used).final(10).ok())).toEqual([
      text,
    ]);
  });

  it.each([
    { turn: 10, text: "first" },
    { turn: 20, text: "second" },
    { turn: 30, text: "any 3" },
  ])("review looks templates up by checkpoint k (turn $turn → $text)", ({ turn, text }) => {
    expect(
      texts(
        { review: { everyTurns: 10 } },
        { review: { "*": "any {checkpoint}", "1": "first", "2": "second" } },
        (t) => t.final(10).ok(),
        turn,
      ),
    ).toEqual([text]);
  });
});

describe("§5 run copy replaces the default copy key by key; options override the run's own", () => {
  const p = { requests: REQ, edits: EDITS };
  const fill = (t: TurnBuilder) => t.requests(18).block("b1", 4).block("b2", 2).final(10).ok();
  // The default copy is contract §5's table; the placeholders' values are the turn's, worked out by hand.
  const table = defaultCopyTable();
  const defaultRequests = fillTemplate(table.requests!["*"], { used: 18, usable: 36, percent: 50, remaining: 18, reserve: 4 });
  const defaultExhausted = fillTemplate(table.edits!.exhausted, { blockId: "b1" });
  const defaultB2 = fillTemplate(table.edits!["*"], { blockId: "b2", used: 2, limit: 4, remaining: 2 });

  it("a key the run's copy does not name keeps the default copy", () => {
    expect(texts(p, { requests: { "*": "R{stage}" } }, fill)).toEqual(["R1", defaultExhausted, defaultB2]);
  });

  it("a key the run's copy names is replaced whole: no default 'exhausted' template survives", () => {
    expect(texts(p, { edits: { "*": "E {blockId} {used}/{limit}" } }, fill)).toEqual([defaultRequests, "E b1 4/4", "E b2 2/4"]);
  });

  it("options.copy takes the place of the run's own copy", () => {
    const events = run({ policy: p, copy: { requests: { "*": "RUN" }, edits: { "*": "RUN" } } })
      .turn(1, fill)
      .events();
    const d = json(rebuild(events, { copy: { edits: { "*": "OPT {blockId}" } } }));
    expect(turnOf(d, 1).reminders.map((r) => r.text)).toEqual([defaultRequests, "OPT b1", "OPT b2"]);
  });

  it("options.policy takes the place of the run's own policy", () => {
    const events = run({ policy: { requests: { limit: 1000, stages: [0.5] } } })
      .turn(1, (t) => t.requests(18).final(10).ok())
      .events();
    expect(json(rebuild(events)).turns[0].reminders).toEqual([]);
    const d = json(rebuild(events, { policy: policy({ requests: { limit: 20, stages: [0.5, 0.9] } }) }));
    expect(turnOf(d, 1).meters.requests).toEqual({ used: 18, limit: 20, reserve: 0, usable: 20, ratio: 0.9, stage: 2 });
    expect(turnOf(d, 1).reminders.map((r) => r.stage)).toEqual([2]);
  });

  it("options.policy without a section switches that meter off", () => {
    const events = run({ policy: { requests: REQ } })
      .turn(1, (t) => t.requests(30).final(10).ok())
      .events();
    const d = json(rebuild(events, { policy: policy({}) }));
    expect(turnOf(d, 1).meters).toEqual({});
    expect(turnOf(d, 1).reminders).toEqual([]);
  });
});

describe("§5 placeholder values", () => {
  const cases = [
    {
      name: "requests: all placeholders",
      policy: { requests: { limit: 40, deliveryReserve: 4, stages: [0.5] } },
      copy: { requests: { "*": "{used}|{limit}|{reserve}|{usable}|{remaining}|{percent}|{stage}" } },
      fill: (t: TurnBuilder) => t.requests(28).final(10).ok(),
      text: "28|40|4|36|8|77|1",
    },
    {
      name: "requests: percent is floor of the exact integer quotient (29/100 → 29, not 28)",
      policy: { requests: { limit: 100, stages: [0.1] } },
      copy: { requests: { "*": "{percent}" } },
      fill: (t: TurnBuilder) => t.requests(29).final(10).ok(),
      text: "29",
    },
    {
      name: "requests: 57/100 → 57",
      policy: { requests: { limit: 100, stages: [0.1] } },
      copy: { requests: { "*": "{percent}" } },
      fill: (t: TurnBuilder) => t.requests(57).final(10).ok(),
      text: "57",
    },
    {
      name: "requests: over the usable, percent is never capped and remaining is at least 0",
      policy: { requests: { limit: 10, deliveryReserve: 3, stages: [0.5] } },
      copy: { requests: { "*": "{used}|{usable}|{remaining}|{percent}" } },
      fill: (t: TurnBuilder) => t.requests(9).final(10).ok(),
      text: "9|7|0|128",
    },
    {
      name: "requests: usable <= 0 gives percent 100, a negative usable with a minus sign, remaining 0",
      policy: { requests: { limit: 2, deliveryReserve: 4, stages: [0.5] } },
      copy: { requests: { "*": "{used}|{usable}|{remaining}|{percent}|{stage}" } },
      fill: (t: TurnBuilder) => t.requests(1).final(10).ok(),
      text: "1|-2|0|100|1",
    },
    {
      name: "time: minutes floor, remainingMin floor of what is left",
      policy: { time: { limitMs: 1_800_000, stages: [0.5] } },
      copy: { time: { "*": "{elapsedMs}|{limitMs}|{elapsedMin}|{limitMin}|{remainingMin}|{percent}|{stage}" } },
      fill: (t: TurnBuilder) => t.time(1_799_999).final(10).ok(),
      text: "1799999|1800000|29|30|0|99|1",
    },
    {
      name: "time: 119999 ms left is 1 min",
      policy: { time: { limitMs: 1_800_000, stages: [0.5] } },
      copy: { time: { "*": "{elapsedMin}|{remainingMin}|{percent}" } },
      fill: (t: TurnBuilder) => t.time(1_680_001).final(10).ok(),
      text: "28|1|93",
    },
    {
      name: "time: past the limit, remainingMin 0 and percent above 100",
      policy: { time: { limitMs: 1_800_000, stages: [0.5] } },
      copy: { time: { "*": "{elapsedMin}|{remainingMin}|{percent}" } },
      fill: (t: TurnBuilder) => t.time(2_000_000).final(10).ok(),
      text: "33|0|111",
    },
    {
      name: "context: freeBytes before fitting may be negative; percent 120",
      policy: { context: { capacityBytes: 10_000, stages: [0.7] } },
      copy: { context: { "*": "{requiredBytes}|{capacityBytes}|{freeBytes}|{percent}|{stage}" } },
      fill: (t: TurnBuilder) => t.final(12_000).ok(),
      text: "12000|10000|-2000|120|1",
    },
    {
      name: "context: freeBytes is before fitting (not reduced by earlier reminders)",
      policy: { requests: REQ, context: { capacityBytes: 10_000, stages: [0.7] } },
      copy: { requests: { "*": "R{stage}" }, context: { "*": "{freeBytes}" } },
      fill: (t: TurnBuilder) => t.requests(18).final(7000).ok(),
      text: "R1,3000",
    },
    {
      name: "edits: remaining at least 0, percent 125",
      policy: { edits: EDITS },
      copy: { edits: { "*": "{blockId}|{used}|{limit}|{remaining}|{percent}|{stage}" } },
      fill: (t: TurnBuilder) => t.block("b1", 5).final(10).ok(),
      text: "b1|5|4|0|125|2",
    },
    {
      name: "edits: limit 0 gives percent 100",
      policy: { edits: { perBlockLimit: 0, stages: [0.5] } },
      copy: { edits: { "*": "{used}|{limit}|{remaining}|{percent}" } },
      fill: (t: TurnBuilder) => t.block("b1", 0).final(10).ok(),
      text: "0|0|0|100",
    },
    {
      name: "edits: percent floor 1/3 → 33",
      policy: { edits: { perBlockLimit: 3, stages: [0.3] } },
      copy: { edits: { "*": "{percent}" } },
      fill: (t: TurnBuilder) => t.block("b1", 1).final(10).ok(),
      text: "33",
    },
    {
      name: "other braces are literal text",
      policy: { requests: REQ },
      copy: { requests: { "*": "{{used}} {x1} {} {a_b} {used" } },
      fill: (t: TurnBuilder) => t.requests(18).final(10).ok(),
      text: "{18} {x1} {} {a_b} {used",
    },
  ];
  it.each(cases)("$name", ({ policy: p, copy, fill, text }) => {
    expect(texts(p, copy, fill).join(",")).toBe(text);
  });
});
