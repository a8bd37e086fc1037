/** R2 (stages per meter, ratios, meters output), R3 (highest stage only), §4 reading rules. */
import { describe, expect, it } from "vitest";
import { rebuild } from "@/lib/core/index";
import { at, CTX, EDITS, json, REQ, reminderTable, run, shortReminders, TIME, turnOf } from "./builders";

describe("R2 requests: used / (limit − deliveryReserve), r >= t on doubles", () => {
  const cases = [
    { name: "18/36 = 0.5 reaches 0.5", section: REQ, used: 18, stage: 1, ratio: 0.5, usable: 36 },
    { name: "17/36 stays below 0.5", section: REQ, used: 17, stage: 0, ratio: 0.4722, usable: 36 },
    { name: "27/36 = 0.75 reaches stage 2", section: REQ, used: 27, stage: 2, ratio: 0.75, usable: 36 },
    { name: "26/36 is stage 1", section: REQ, used: 26, stage: 1, ratio: 0.7222, usable: 36 },
    { name: "33/36 is stage 3", section: REQ, used: 33, stage: 3, ratio: 0.9167, usable: 36 },
    { name: "used above usable is the highest stage", section: REQ, used: 50, stage: 3, ratio: 1.3889, usable: 36 },
    {
      name: "55/100 reaches 0.55 (the double quotient, not used >= 0.55 × 100)",
      section: { limit: 100, stages: [0.55] },
      used: 55,
      stage: 1,
      ratio: 0.55,
      usable: 100,
    },
    {
      name: "54/100 does not reach 0.55",
      section: { limit: 100, stages: [0.55] },
      used: 54,
      stage: 0,
      ratio: 0.54,
      usable: 100,
    },
    {
      name: "1/3 reaches 0.33333333333333334 (the same IEEE double)",
      section: { limit: 3, stages: [0.33333333333333334] },
      used: 1,
      stage: 1,
      ratio: 0.3333,
      usable: 3,
    },
    {
      name: "usable 0 (limit = reserve): infinite, highest stage, ratio null, even with used 0",
      section: { limit: 4, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
      used: 0,
      stage: 3,
      ratio: null,
      usable: 0,
    },
    {
      name: "usable negative (reserve > limit): infinite, not a negative ratio",
      section: { limit: 2, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
      used: 1,
      stage: 3,
      ratio: null,
      usable: -2,
    },
    {
      name: "limit 0 without reserve: infinite",
      section: { limit: 0, stages: [0.5, 2] },
      used: 0,
      stage: 2,
      ratio: null,
      usable: 0,
    },
    {
      name: "output ratio is Math.round(r × 10000) / 10000 of the double: 3/160 → 0.0188 (not toFixed's 0.0187)",
      section: { limit: 160, stages: [0.5] },
      used: 3,
      stage: 0,
      ratio: 0.0188,
      usable: 160,
    },
    {
      name: "output ratio 17/160 → 0.1063",
      section: { limit: 160, stages: [0.5] },
      used: 17,
      stage: 0,
      ratio: 0.1063,
      usable: 160,
    },
    {
      name: "deliveryReserve defaults to 0",
      section: { limit: 40, stages: [0.5] },
      used: 20,
      stage: 1,
      ratio: 0.5,
      usable: 40,
    },
  ];

  it.each(cases)("$name", ({ section, used, stage, ratio, usable }) => {
    const d = json(
      rebuild(
        run({ policy: { requests: section } })
          .turn(1, (t) => t.requests(used).final(10).ok())
          .events(),
      ),
    );
    const turn = turnOf(d, 1);
    const reserve = "deliveryReserve" in section ? section.deliveryReserve : 0;
    expect(turn.meters).toStrictEqual({ requests: { used, limit: section.limit, reserve, usable, ratio, stage } });
    expect(shortReminders(d, 1)).toEqual(stage >= 1 ? [`requests s${stage} delivered`] : []);
  });
});

describe("R2 time: elapsedMs / limitMs", () => {
  const cases = [
    { name: "900000/1800000 reaches 0.5", elapsedMs: 900_000, stage: 1, ratio: 0.5 },
    { name: "899999/1800000 stays below 0.5 (ratio rounds to 0.5 only in output)", elapsedMs: 899_999, stage: 0, ratio: 0.5 },
    { name: "0 elapsed is stage 0", elapsedMs: 0, stage: 0, ratio: 0 },
    { name: "1620000 = 0.9 is stage 3", elapsedMs: 1_620_000, stage: 3, ratio: 0.9 },
    { name: "past the limit is stage 3", elapsedMs: 3_600_000, stage: 3, ratio: 2 },
  ];
  it.each(cases)("$name", ({ elapsedMs, stage, ratio }) => {
    const d = json(
      rebuild(
        run({ policy: { time: TIME } })
          .turn(1, (t) => t.time(elapsedMs).final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 1).meters).toStrictEqual({ time: { elapsedMs, limitMs: 1_800_000, ratio, stage } });
    expect(shortReminders(d, 1)).toEqual(stage >= 1 ? [`time s${stage} delivered`] : []);
  });
});

describe("R2 context: requiredBytes / capacityBytes of the final request", () => {
  const cases = [
    { name: "7000/10000 reaches 0.7", requiredBytes: 7000, stage: 1, ratio: 0.7 },
    { name: "6999/10000 stays below 0.7", requiredBytes: 6999, stage: 0, ratio: 0.6999 },
    { name: "8500/10000 reaches 0.85", requiredBytes: 8500, stage: 2, ratio: 0.85 },
    { name: "9499/10000 is stage 2", requiredBytes: 9499, stage: 2, ratio: 0.9499 },
    { name: "9500/10000 is stage 3", requiredBytes: 9500, stage: 3, ratio: 0.95 },
    { name: "larger than capacity is stage 3", requiredBytes: 20000, stage: 3, ratio: 2 },
  ];
  it.each(cases)("$name", ({ requiredBytes, stage, ratio }) => {
    const d = json(
      rebuild(
        run({ policy: { context: CTX } })
          .turn(1, (t) => t.final(requiredBytes).ok())
          .events(),
      ),
    );
    const turn = turnOf(d, 1);
    expect(turn.meters).toStrictEqual({ context: { requiredBytes, capacityBytes: 10_000, ratio, stage } });
    expect(turn.requiredBytes).toBe(requiredBytes);
    expect(turn.capacityBytes).toBe(10_000);
    // every notice here is dropped when the request leaves no room; delivered otherwise
    expect(turn.reminders.map((r) => `${r.key} s${r.stage}`)).toEqual(stage >= 1 ? [`context s${stage}`] : []);
  });
});

type BlockMeter = { blockId: string; used: number; limit: number; ratio: number | null; stage: number };
interface EditsCase {
  name: string;
  policy: { perBlockLimit: number; stages: number[] };
  turns: { turn: number; blocks: [string, number, number?][] }[];
  meters: Record<number, BlockMeter[]>;
}

describe("R2 edits: used / limit per block (own limit, persisting, else perBlockLimit)", () => {
  const cases: EditsCase[] = [
    {
      name: "2 of perBlockLimit 4 reaches 0.5",
      policy: EDITS,
      turns: [{ turn: 1, blocks: [["b1", 2]] }],
      meters: { 1: [{ blockId: "b1", used: 2, limit: 4, ratio: 0.5, stage: 1 }] },
    },
    {
      name: "1 of 4 is stage 0 but still a meter",
      policy: EDITS,
      turns: [{ turn: 1, blocks: [["b1", 1]] }],
      meters: { 1: [{ blockId: "b1", used: 1, limit: 4, ratio: 0.25, stage: 0 }] },
    },
    {
      name: "4 of 4 reaches 1.0",
      policy: EDITS,
      turns: [{ turn: 1, blocks: [["b1", 4]] }],
      meters: { 1: [{ blockId: "b1", used: 4, limit: 4, ratio: 1, stage: 2 }] },
    },
    {
      name: "the block's own limit is used instead of perBlockLimit",
      policy: EDITS,
      turns: [{ turn: 1, blocks: [["b1", 2, 8]] }],
      meters: { 1: [{ blockId: "b1", used: 2, limit: 8, ratio: 0.25, stage: 0 }] },
    },
    {
      name: "the own limit persists until another is reported; other blocks keep perBlockLimit",
      policy: EDITS,
      turns: [
        { turn: 1, blocks: [["b1", 1, 8]] },
        {
          turn: 2,
          blocks: [
            ["b1", 4],
            ["b2", 2],
          ],
        },
        { turn: 3, blocks: [["b1", 4, 4]] },
        { turn: 4, blocks: [] },
      ],
      meters: {
        1: [{ blockId: "b1", used: 1, limit: 8, ratio: 0.125, stage: 0 }],
        2: [
          { blockId: "b1", used: 4, limit: 8, ratio: 0.5, stage: 1 },
          { blockId: "b2", used: 2, limit: 4, ratio: 0.5, stage: 1 },
        ],
        3: [
          { blockId: "b1", used: 4, limit: 4, ratio: 1, stage: 2 },
          { blockId: "b2", used: 2, limit: 4, ratio: 0.5, stage: 1 },
        ],
        4: [
          { blockId: "b1", used: 4, limit: 4, ratio: 1, stage: 2 },
          { blockId: "b2", used: 2, limit: 4, ratio: 0.5, stage: 1 },
        ],
      },
    },
    {
      name: "perBlockLimit 0: infinite, highest stage, ratio null",
      policy: { perBlockLimit: 0, stages: [0.5, 1] },
      turns: [{ turn: 1, blocks: [["b1", 0]] }],
      meters: { 1: [{ blockId: "b1", used: 0, limit: 0, ratio: null, stage: 2 }] },
    },
    {
      name: "a reported limit 0: infinite, highest stage",
      policy: EDITS,
      turns: [{ turn: 1, blocks: [["b1", 0, 0]] }],
      meters: { 1: [{ blockId: "b1", used: 0, limit: 0, ratio: null, stage: 2 }] },
    },
  ];

  it.each(cases)("$name", ({ policy, turns, meters }) => {
    const b = run({ policy: { edits: policy } });
    for (const { turn, blocks } of turns) {
      b.turn(turn, (t) => {
        for (const [id, used, limit] of blocks) t.block(id, used, limit);
        t.final(10).ok();
      });
    }
    const d = json(rebuild(b.events()));
    for (const [turn, edits] of Object.entries(meters)) {
      expect(turnOf(d, Number(turn)).meters).toStrictEqual({ edits });
      expect(turnOf(d, Number(turn)).reminders.map((r) => `${r.subject} s${r.stage}`)).toEqual(
        edits.filter((m) => m.stage >= 1).map((m) => `${m.blockId} s${m.stage}`),
      );
    }
  });
});

describe("§4 readings: absent until read, persist to later turns, latest in run order wins", () => {
  it("a meter with no reading yet is absent: no meter, no reminder", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ, time: TIME, edits: EDITS } })
          .turn(0, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 0).meters).toStrictEqual({});
    expect(turnOf(d, 0).reminders).toEqual([]);
  });

  it("a meter off in the policy is absent even with readings", () => {
    const d = json(
      rebuild(
        run({ policy: {} })
          .turn(0, (t) => t.requests(30).time(10).block("b1", 3).final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 0).meters).toStrictEqual({});
    expect(turnOf(d, 0).reminders).toEqual([]);
    expect(turnOf(d, 0).capacityBytes).toBeNull();
    expect(turnOf(d, 0).freeBytesAfter).toBeNull();
  });

  it("a reading holds for later turns until a newer one", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(1, (t) => t.requests(10).final(10).ok())
          .turn(2, (t) => t.final(10).ok())
          .turn(3, (t) => t.requests(12).final(10).ok())
          .events(),
      ),
    );
    expect([1, 2, 3].map((n) => turnOf(d, n).meters.requests?.used)).toEqual([10, 10, 12]);
  });

  it("a reading tagged with the turn counts even when sent after the turn's submission", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(1, (t) => t.final(10).ok().requests(30))
          .events(),
      ),
    );
    expect(turnOf(d, 1).meters.requests?.used).toBe(30);
  });

  it("a reading tagged with a later turn does not count for an earlier one, whatever its ts", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(3, (t) => t.requests(30, { ts: at(-100) }).final(10))
          .turn(1, (t) => t.requests(10).final(10).ok())
          .turn(2, (t) => t.final(10).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 2).meters.requests?.used).toBe(10);
    expect(turnOf(d, 3).meters.requests?.used).toBe(30);
  });

  it("within a turn the latest reading in run order (ts as instants) wins, not the last emitted", () => {
    const d = json(
      rebuild(
        run({ policy: { requests: REQ } })
          .turn(1, (t) =>
            t
              .requests(20, { ts: "2026-11-29T10:00:50Z" })
              // 10:00:40Z as an instant, though its text sorts after the first one
              .requests(10, { ts: "2026-11-29T11:00:40+01:00" })
              .final(10)
              .ok(),
          )
          .events(),
      ),
    );
    expect(turnOf(d, 1).meters.requests?.used).toBe(20);
  });

  it("the turn's last request.final gives requiredBytes", () => {
    const d = json(
      rebuild(
        run({ policy: { context: CTX } })
          .turn(1, (t) => t.final(9000).final(6000).ok())
          .events(),
      ),
    );
    expect(turnOf(d, 1).requiredBytes).toBe(6000);
    expect(turnOf(d, 1).meters.context).toEqual({ requiredBytes: 6000, capacityBytes: 10000, ratio: 0.6, stage: 0 });
  });
});

describe("R3 highest stage only", () => {
  const cases = [
    {
      name: "a jump from stage 0 to 3 gives one notice at stage 3, and nothing after",
      used: [10, 34, 35],
      expected: { 1: [], 2: ["requests s3 delivered"], 3: [] },
    },
    {
      name: "stage 1 delivered, then a jump to 3 sends stage 3, never stage 2",
      used: [18, 33, 33],
      expected: { 1: ["requests s1 delivered"], 2: ["requests s3 delivered"], 3: [] },
    },
    {
      name: "one stage at a time: each new stage once",
      used: [18, 27, 33],
      expected: { 1: ["requests s1 delivered"], 2: ["requests s2 delivered"], 3: ["requests s3 delivered"] },
    },
  ];
  it.each(cases)("$name", ({ used, expected }) => {
    const b = run({ policy: { requests: REQ } });
    used.forEach((u, i) => b.turn(i + 1, (t) => t.requests(u).final(10).ok()));
    expect(reminderTable(rebuild(b.events()))).toEqual(expected);
  });
});
