import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZEvent, type TEvent, type TRunDecisions } from "@/lib/contracts";
import { rebuild } from "./rebuild";

/**
 * Random but well-formed runs: a few turns of meter readings, compactions, finals (sometimes
 * missing), submissions with every outcome (sometimes none), agent lists and Reviewer events,
 * with timestamps that often tie so the id tie-break matters.
 */
const arbTurn = fc.record({
  requests: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
  elapsedMs: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }),
  blocks: fc.array(
    fc.record({
      blockId: fc.constantFrom("b1", "b2", "é3", "\u{1F600}"),
      used: fc.integer({ min: 0, max: 6 }),
      limit: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    }),
    { maxLength: 3 },
  ),
  compaction: fc.option(
    fc.record({ candidateBytes: fc.integer({ min: 0, max: 1200 }), outcome: fc.constantFrom("adopted", "rolled_back") }),
    { nil: undefined },
  ),
  finals: fc.array(fc.integer({ min: 0, max: 1300 }), { maxLength: 2 }),
  submissions: fc.array(fc.constantFrom("ok", "failed", "uncertain"), { maxLength: 2 }),
  reviewer: fc.array(fc.constantFrom("admit", "deny", "dispatch", "complete", "cancel"), { maxLength: 2 }),
  second: fc.integer({ min: 0, max: 3 }),
});

const arbRun = fc.record({
  capacityBytes: fc.integer({ min: 50, max: 1200 }),
  everyTurns: fc.integer({ min: 1, max: 4 }),
  autoReviewAllowed: fc.boolean(),
  turns: fc.array(arbTurn, { minLength: 1, maxLength: 14 }),
});

type RunSpec = typeof arbRun extends fc.Arbitrary<infer T> ? T : never;

function eventsOf(spec: RunSpec): TEvent[] {
  const raw: object[] = [];
  let n = 0;
  const push = (type: string, turn: number | undefined, second: number, body: object) =>
    raw.push({ id: `e-${String(++n).padStart(4, "0")}`, runId: "prop", type, turn, ts: `2026-11-29T10:00:0${second}.000Z`, body });
  push("run.started", undefined, 0, {
    task: "property run",
    policy: {
      requests: { limit: 40, deliveryReserve: 4, stages: [0.5, 0.75, 0.9] },
      time: { limitMs: 1_800_000, stages: [0.5, 0.9] },
      context: { capacityBytes: spec.capacityBytes, stages: [0.3, 0.7, 0.95] },
      edits: { perBlockLimit: 4, stages: [0.5, 1] },
      review: { everyTurns: spec.everyTurns, afterMs: 600_000 },
      reviewer: { autoReviewAllowed: spec.autoReviewAllowed, minRequestsLeft: 8 },
    },
  });
  spec.turns.forEach((t, turn) => {
    const s = t.second;
    if (t.requests !== undefined) push("meter.requests", turn, s, { used: t.requests });
    if (t.elapsedMs !== undefined) push("meter.time", turn, s, { elapsedMs: t.elapsedMs });
    for (const b of t.blocks) push("block.edited", turn, s, b);
    if (t.compaction) push("context.compaction", turn, s, { originalBytes: 1300, ...t.compaction });
    for (const requiredBytes of t.finals) push("request.final", turn, s, { requiredBytes });
    t.submissions.forEach((outcome, i) =>
      push("request.submitted", turn, s, {
        outcome,
        reminders:
          i === 0
            ? [
                { key: "context", stage: 1 },
                { key: "review", stage: 1 },
              ]
            : undefined,
      }),
    );
    for (const step of t.reviewer) {
      if (step === "admit" || step === "deny")
        push("reviewer.admission", turn, s, { candidateId: `c${turn}`, granted: step === "admit", reasons: [] });
      if (step === "dispatch") push("reviewer.dispatched", turn, s, { candidateId: `c${turn}`, dispatchId: `d${turn}` });
      if (step === "complete") push("reviewer.completed", turn, s, { dispatchId: `d${Math.max(0, turn - 1)}` });
      if (step === "cancel") push("reviewer.cancelled", turn, s, { candidateId: `c${turn}`, reason: "reminder_dropped" });
    }
  });
  push("run.ended", undefined, 0, { status: "completed" });
  return raw.map((e) => ZEvent.parse(e));
}

/** A deterministic permutation with some events repeated, from fast-check's random keys. */
function shuffledWithRepeats(events: TEvent[], keys: number[], repeats: number[]): TEvent[] {
  const copies = repeats.map((r) => structuredClone(events[r % events.length]));
  const all = [...events, ...copies];
  return all
    .map((event, i) => ({ event, key: keys[i % keys.length] ?? 0, i }))
    .sort((a, b) => a.key - b.key || b.i - a.i)
    .map(({ event }) => event);
}

describe("rebuild properties", () => {
  it("does not depend on arrival order or on repeated deliveries", () => {
    fc.assert(
      fc.property(arbRun, fc.array(fc.integer(), { minLength: 1 }), fc.array(fc.nat(), { maxLength: 20 }), (spec, keys, repeats) => {
        const events = eventsOf(spec);
        expect(rebuild(shuffledWithRepeats(events, keys, repeats))).toEqual(rebuild(events));
      }),
      { numRuns: 200 },
    );
  });

  it("never lets a dropped, failed or pending notice into the ledger: it is reconsidered next turn", () => {
    fc.assert(
      fc.property(arbRun, (spec) => {
        const decisions = rebuild(eventsOf(spec));
        for (const [earlier, later] of consecutive(decisions)) {
          for (const reminder of earlier.reminders) {
            if (reminder.kind !== "notice" || !["dropped", "failed", "pending"].includes(reminder.status)) continue;
            const key = reminder.key as "requests" | "time" | "context";
            const stageNow = later.meters[key]?.stage;
            if (stageNow !== undefined && stageNow >= reminder.stage) {
              expect(later.reminders.some((r) => r.key === key)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a delivered or uncertain notice is not sent again at the same stage while the meter holds", () => {
    fc.assert(
      fc.property(arbRun, (spec) => {
        const decisions = rebuild(eventsOf(spec));
        for (const [earlier, later] of consecutive(decisions)) {
          for (const reminder of earlier.reminders) {
            if (reminder.kind !== "notice" || !["delivered", "uncertain"].includes(reminder.status)) continue;
            const key = reminder.key as "requests" | "time" | "context";
            if (later.meters[key]?.stage === reminder.stage) {
              expect(later.reminders.some((r) => r.key === key)).toBe(false);
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("fits first-fit within capacity: included bytes never exceed the free bytes", () => {
    fc.assert(
      fc.property(arbRun, (spec) => {
        for (const turn of rebuild(eventsOf(spec)).turns) {
          const included = turn.reminders.filter((r) => r.status !== "dropped").reduce((sum, r) => sum + r.bytes, 0);
          expect(turn.freeBytesAfter).toBe(turn.capacityBytes! - turn.requiredBytes - included);
          for (const r of turn.reminders.filter((r) => r.status === "dropped")) expect(r.bytes).toBeGreaterThan(r.freeBytes!);
        }
      }),
      { numRuns: 200 },
    );
  });
});

/** Pairs of consecutive rebuilt turns (a skipped turn between them changes no ledger, R14). */
function* consecutive(decisions: TRunDecisions) {
  for (let i = 1; i < decisions.turns.length; i++) yield [decisions.turns[i - 1], decisions.turns[i]] as const;
}
