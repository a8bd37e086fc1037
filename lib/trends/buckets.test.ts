import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent, type TReminderDecision, type TRunDecisions, type TTurnDecision } from "@/lib/contracts";
import { followUp, rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { BUCKET_MS, bucketOf, copyVersionOf, policyVersionOf, trendBuckets } from "./buckets";

const T0 = Date.UTC(2026, 2, 29, 0, 0); // a bucket boundary

function reminder(key: TReminderDecision["key"], status: TReminderDecision["status"]): TReminderDecision {
  return { key, subject: null, kind: key === "review" ? "suggestion" : "notice", stage: 1, text: key, bytes: 10, status };
}

function turn(n: number, reminders: TReminderDecision[] = [], requiredBytes = 100): TTurnDecision {
  return { turn: n, requiredBytes, capacityBytes: 1000, freeBytesAfter: 900, meters: {}, reminders, reviewer: null };
}

function action(turn: number, kind: "finalize" | "check_evidence"): TEvent {
  return { id: `a${turn}${kind}`, runId: "r", type: "model.action", ts: new Date(T0).toISOString(), turn, body: { kind } } as TEvent;
}

const minutes = (m: number) => T0 + m * 60_000;

describe("trendBuckets", () => {
  it.each<{
    name: string;
    decisions: TRunDecisions;
    events?: TEvent[];
    times: [number, number][];
    want: { at: number; counts: Record<string, number> }[];
  }>([
    {
      name: "turns and reminders counted in their turn's 15-minute bucket",
      decisions: {
        runId: "r",
        turns: [
          turn(0, [reminder("requests", "delivered"), reminder("context", "dropped")]),
          turn(1, [reminder("context", "failed")]),
          turn(2),
        ],
        findings: [],
      },
      times: [
        [0, minutes(0)],
        [1, minutes(14.99)],
        [2, minutes(15)],
      ],
      want: [
        {
          at: minutes(0),
          counts: {
            // §10: the context notice dropped at 0 is not followed (turn 1 needs as many bytes), nor the requests notice.
            "effect.context.1.none.dropped": 1,
            "effect.requests.1.none.delivered": 1,
            "fatigue.requests.bytes": 10,
            "followUp.requests.delivered": 1,
            "reminders.context.candidates": 2,
            "reminders.context.dropped": 1,
            "reminders.requests.candidates": 1,
            "reminders.requests.delivered": 1,
            turns: 2,
          },
        },
        // Run-level fatigue counts go to the last turn's bucket: its only delivered bytes are requests'.
        { at: minutes(15), counts: { "fatigue.requests.dominatedRuns": 1, "fatigue.runsWithReminderBytes": 1, turns: 1 } },
      ],
    },
    {
      name: "findings by code in their turn's bucket, Reviewer findings also as violations, run-level findings with the last turn",
      decisions: {
        runId: "r",
        turns: [turn(0), turn(1)],
        findings: [
          { code: "MISSING_REMINDER", turn: 0, detail: "" },
          { code: "CONCURRENT_DISPATCH", turn: 1, detail: "" },
          { code: "INCOMPLETE_TURN", turn: null, detail: "" },
        ],
      },
      times: [
        [0, minutes(1)],
        [1, minutes(40)],
      ],
      want: [
        { at: minutes(0), counts: { "findings.MISSING_REMINDER": 1, turns: 1 } },
        { at: minutes(30), counts: { "findings.CONCURRENT_DISPATCH": 1, "findings.INCOMPLETE_TURN": 1, reviewerViolations: 1, turns: 1 } },
      ],
    },
    {
      name: "follow-up (contract §8): delivered reminders and those followed within 3 turns",
      decisions: {
        runId: "r",
        turns: [
          turn(0, [reminder("requests", "delivered"), reminder("review", "delivered")]),
          turn(1),
          turn(2),
          turn(3, [reminder("time", "uncertain")]),
        ],
        findings: [],
      },
      events: [action(2, "finalize")],
      times: [
        [0, minutes(0)],
        [1, minutes(1)],
        [2, minutes(2)],
        [3, minutes(3)],
      ],
      want: [
        {
          at: minutes(0),
          counts: {
            // §10: the same two delivered reminders; 10 bytes each, so neither key dominates.
            "effect.requests.1.none.delivered": 1,
            "effect.requests.1.none.deliveredFollowed": 1,
            "effect.review.all.none.delivered": 1,
            "fatigue.requests.bytes": 10,
            "fatigue.review.bytes": 10,
            "fatigue.runsWithReminderBytes": 1,
            "followUp.requests.delivered": 1,
            "followUp.requests.followed": 1,
            "followUp.review.delivered": 1,
            "reminders.requests.candidates": 1,
            "reminders.requests.delivered": 1,
            "reminders.review.candidates": 1,
            "reminders.review.delivered": 1,
            "reminders.time.candidates": 1,
            turns: 4,
          },
        },
      ],
    },
    {
      name: "§10 effect and fatigue keys in their turn's bucket, by the turn's context stage",
      decisions: {
        runId: "r",
        turns: [
          {
            ...turn(0, [reminder("requests", "delivered"), reminder("review", "dropped")]),
            meters: { context: { requiredBytes: 100, capacityBytes: 1000, ratio: 0.1, stage: 0 } },
          },
          turn(1, [reminder("requests", "delivered")]),
        ],
        findings: [],
      },
      events: [action(1, "check_evidence")],
      times: [
        [0, minutes(0)],
        [1, minutes(20)],
      ],
      want: [
        {
          at: minutes(0),
          counts: {
            "effect.requests.1.0.delivered": 1,
            "effect.review.all.0.dropped": 1,
            "effect.review.all.0.droppedFollowed": 1,
            "fatigue.capacityBytes": 1000,
            "fatigue.requests.bytes": 10,
            "fatigue.requests.contextBytes": 10,
            "followUp.requests.delivered": 1,
            "reminders.requests.candidates": 1,
            "reminders.requests.delivered": 1,
            "reminders.review.candidates": 1,
            "reminders.review.dropped": 1,
            turns: 1,
          },
        },
        {
          at: minutes(15),
          counts: {
            // The requests notice again (same subject and stage) one turn later: a repeat, gap 1; all bytes are requests'.
            "effect.requests.1.none.delivered": 1,
            "fatigue.requests.bytes": 10,
            "fatigue.requests.dominatedRuns": 1,
            "fatigue.requests.repeatGapTurns": 1,
            "fatigue.requests.repeats": 1,
            "fatigue.runsWithReminderBytes": 1,
            "followUp.requests.delivered": 1,
            "reminders.requests.candidates": 1,
            "reminders.requests.delivered": 1,
            turns: 1,
          },
        },
      ],
    },
    {
      name: "a turn without a time takes the nearest earlier turn's, the first ones the first known",
      decisions: { runId: "r", turns: [turn(0), turn(1), turn(2), turn(3)], findings: [] },
      times: [
        [1, minutes(20)],
        [3, minutes(50)],
      ],
      want: [
        { at: minutes(15), counts: { turns: 3 } },
        { at: minutes(45), counts: { turns: 1 } },
      ],
    },
    { name: "no times, no buckets", decisions: { runId: "r", turns: [turn(0)], findings: [] }, times: [], want: [] },
  ])("$name", ({ decisions, events, times, want }) => {
    expect(trendBuckets(decisions, events ?? [], new Map(times))).toEqual(want.map((w) => ({ bucketMs: w.at, counts: w.counts })));
  });

  it("counts §8's follow-up in the one pass with §10's counts exactly as lib/core's followUp does (a generated run with anomalies)", () => {
    const events = generateEtfRun({ turns: 600, seed: 11, anomalies: true, runId: "one-pass" }).events.map((e) => ZEvent.parse(e));
    const decisions = rebuild(events);
    const times = new Map<number, number>();
    for (const e of events) if ("turn" in e && typeof e.turn === "number" && !times.has(e.turn)) times.set(e.turn, Date.parse(e.ts));
    const without = (buckets: ReturnType<typeof trendBuckets>) =>
      buckets.map((b) => ({
        ...b,
        counts: Object.fromEntries(Object.entries(b.counts).filter(([k]) => !k.startsWith("effect.") && !k.startsWith("fatigue."))),
      }));
    const full = trendBuckets(decisions, events, times);
    const before = trendBuckets(decisions, events, times, { effect: false });
    expect(without(full)).toEqual(before);
    // Independently: the follow-up counts are lib/core followUp's items.
    const items = followUp(decisions, events).items;
    const sum = (suffix: string) =>
      full.reduce(
        (n, b) => n + Object.entries(b.counts).reduce((m, [k, v]) => m + (k.startsWith("followUp.") && k.endsWith(suffix) ? v : 0), 0),
        0,
      );
    expect(sum(".delivered")).toBe(items.length);
    expect(sum(".followed")).toBe(items.filter((i) => i.followed).length);
    expect(items.length).toBeGreaterThan(100);
  });

  it("buckets start at multiples of 15 minutes, before the epoch too", () => {
    expect(BUCKET_MS).toBe(900_000);
    expect(bucketOf(minutes(29.9))).toBe(minutes(15));
    expect(bucketOf(-1)).toBe(-BUCKET_MS);
  });

  it("names a copy version by its resolved copy and a policy version by its policy", () => {
    expect(copyVersionOf(undefined)).toBe(copyVersionOf(null));
    expect(copyVersionOf({ requests: { "1": "x" } } as never)).not.toBe(copyVersionOf(undefined));
    expect(policyVersionOf({ b: 1, a: 2 })).toBe(policyVersionOf({ a: 2, b: 1 }));
  });
});
