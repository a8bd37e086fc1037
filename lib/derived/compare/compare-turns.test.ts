import { describe, expect, it } from "vitest";
import { ZEvent, type TPolicy, type TTurnDecision } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { compareTurns } from "./compare-turns";

/** A turn's decision as compared, written out here (not through lib/derived/compare): reminders' key, subject, kind, stage, status; the Reviewer decision. */
const view = (t: TTurnDecision | undefined) =>
  t && { reminders: t.reminders.map(({ key, subject, kind, stage, status }) => [key, subject, kind, stage, status]), reviewer: t.reviewer };

function differing(a: readonly TTurnDecision[], b: readonly TTurnDecision[]): number[] {
  const [ma, mb] = [new Map(a.map((t) => [t.turn, t])), new Map(b.map((t) => [t.turn, t]))];
  const last = Math.min(a.at(-1)!.turn, b.at(-1)!.turn);
  const out: number[] = [];
  for (let turn = 0; turn <= last; turn++) if (JSON.stringify(view(ma.get(turn))) !== JSON.stringify(view(mb.get(turn)))) out.push(turn);
  return out;
}

describe("compareTurns: a run against its what-if, in memory", () => {
  // 900 turns (four slices of 256), rebuilt with its own policy and with earlier context stages.
  const events = generateEtfRun({ seed: 15, turns: 900 }).events.map((e) => ZEvent.parse(e));
  const started = events.find((e) => e.type === "run.started");
  const policy = (started?.type === "run.started" ? started.body.policy : {}) as TPolicy;
  const own = rebuild(events);
  const whatIf = rebuild(events, { policy: { ...policy, context: { ...policy.context!, stages: [0.5, 0.7, 0.85, 0.95] } } });
  const expected = differing(own.turns, whatIf.turns);

  it("steps next and previous through exactly the turns a turn-by-turn comparison finds", () => {
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.at(-1)!).toBeGreaterThan(256);
    const first = compareTurns(own.turns, whatIf.turns, { direction: "next" });
    expect(first).toMatchObject({ commonTurns: [0, 899], lastTurns: { a: 899, b: 899 }, first: expected[0], turn: expected[0] });
    expect(first.decisions!.a).toEqual(own.turns.find((t) => t.turn === expected[0]));
    expect(first.decisions!.b).toEqual(whatIf.turns.find((t) => t.turn === expected[0]));
    expect(first.decisions!.difference).not.toBe("same");
    const forward: number[] = [];
    for (let at: number | null = first.turn; at !== null;) {
      forward.push(at);
      at = compareTurns(own.turns, whatIf.turns, { turn: at, direction: "next" }).turn;
    }
    expect(forward).toEqual(expected);
    const backward: number[] = [];
    for (let at: number | null = compareTurns(own.turns, whatIf.turns, { direction: "previous" }).turn; at !== null;) {
      backward.push(at);
      at = compareTurns(own.turns, whatIf.turns, { turn: at, direction: "previous" }).turn;
    }
    expect(backward).toEqual([...expected].reverse());
  });

  it("answers a turn itself with `at`, the same or not, and nothing past either end", () => {
    const same = own.turns.find((t) => t.turn > expected[0] && !expected.includes(t.turn))!.turn;
    expect(compareTurns(own.turns, whatIf.turns, { turn: same, direction: "at" }).decisions?.difference).toBe("same");
    expect(compareTurns(own.turns, whatIf.turns, { turn: expected.at(-1)!, direction: "next" })).toMatchObject({
      turn: null,
      decisions: null,
    });
    expect(compareTurns(own.turns, whatIf.turns, { turn: expected[0], direction: "previous" }).turn).toBeNull();
  });

  it("compares over the common turns only, and says a turn only one side has differs", () => {
    const shorter = whatIf.turns.filter((t) => t.turn <= 500 && t.turn !== 3);
    const answer = compareTurns(own.turns, shorter, { direction: "previous" });
    expect(answer).toMatchObject({ commonTurns: [0, 500], lastTurns: { a: 899, b: 500 }, first: 3 });
    expect(answer.turn).toBe(expected.filter((t) => t <= 500).at(-1));
    expect(compareTurns(own.turns, shorter, { turn: 3, direction: "at" }).decisions).toMatchObject({ b: null, difference: "only-a" });
    expect(compareTurns(own.turns, [], { direction: "next" })).toEqual({
      commonTurns: null,
      lastTurns: { a: 899, b: null },
      first: null,
      turn: null,
      decisions: null,
    });
  });
});
