import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FINDING_CODES, ZEvent, ZPolicy, type TCopy, type TEvent, type TPolicy, type TRunDecisions } from "@/lib/contracts";
import { defaultEtfPolicy, generateEtfRun } from "@/lib/demo/etf-run";
import { RebuildCheckpointError, RunInputError } from "./errors";
import { rebuild, type RebuildOptions } from "./rebuild";
import {
  needsFullRebuild,
  readRebuildCheckpoint,
  rebuildWithCheckpoint,
  resumeBaseOf,
  resumeRebuild,
  resumeRebuildTail,
  type CheckpointedRebuild,
  type RebuildCheckpoint,
  type ResumeBase,
} from "./resume";

function runEvents(turns: number, seed: number): TEvent[] {
  return generateEtfRun({ turns, seed, anomalies: true }).events.map((event) => ZEvent.parse(event) as TEvent);
}

/** What storage does to a value: JSON out, JSON back. */
function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function turnOf(event: TEvent): number | undefined {
  return event.type === "run.started" || event.type === "run.ended" ? undefined : event.turn;
}

/** What the caller loads to resume: the events of turns >= nextTurn, and run.ended. */
function tailFrom(events: readonly TEvent[], nextTurn: number): TEvent[] {
  return events.filter((event) => event.type === "run.ended" || (turnOf(event) ?? -1) >= nextTurn);
}

const otherPolicy = (turns: number): TPolicy => {
  const policy = ZPolicy.parse(defaultEtfPolicy(turns));
  return { ...policy, context: { capacityBytes: 60_000, stages: [0.5, 0.8, 0.9] }, review: { everyTurns: 7 } };
};
const otherCopy: TCopy = {
  requests: { "*": "Requests {used}/{usable} (stage {stage})" },
  edits: { "*": "Block {blockId}: {used}/{limit}", exhausted: "Block {blockId} has no edits left" },
  review: { "*": "Review now (checkpoint {checkpoint})" },
};
const OPTION_VARIANTS: ((turns: number) => RebuildOptions)[] = [
  () => ({}),
  (turns) => ({ policy: otherPolicy(turns) }),
  () => ({ copy: otherCopy }),
  (turns) => ({ policy: otherPolicy(turns), copy: otherCopy }),
];

/** A small deterministic shuffle (mulberry32), so fast-check's seed decides the arrival order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The events in emission order, cut into batches at the given millionths, each shuffled and with some repeats. */
function batchesOf(events: TEvent[], cuts: number[], seed: number, repeatEvery: number): TEvent[][] {
  const at = [...new Set(cuts.map((c) => 1 + Math.floor((c / 1e6) * (events.length - 1))))].sort((a, b) => a - b);
  const bounds = [0, ...at, events.length];
  const batches: TEvent[][] = [];
  for (let b = 1; b < bounds.length; b++) {
    const batch = events.slice(bounds[b - 1], bounds[b]);
    if (batch.length === 0) continue;
    const repeats = batch.filter((_, i) => i % repeatEvery === 0).map((event) => structuredClone(event));
    batches.push(shuffled([...batch, ...repeats], seed + b));
  }
  return batches;
}

describe("rebuildWithCheckpoint and resumeRebuild", () => {
  it("resumed batch by batch, from JSON round-tripped checkpoints, give the full rebuild's decisions and checkpoint", () => {
    let resumes = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 30, max: 300 }),
        fc.integer({ min: 0, max: OPTION_VARIANTS.length - 1 }),
        fc.array(fc.integer({ min: 0, max: 999_999 }), { maxLength: 12 }),
        fc.integer(),
        fc.integer({ min: 2, max: 40 }),
        (seed, turns, variant, cuts, shuffleSeed, repeatEvery) => {
          const options = OPTION_VARIANTS[variant](turns);
          const arrived: TEvent[] = [];
          let stored: { decisions: TRunDecisions; checkpoint: RebuildCheckpoint | null } | null = null;
          for (const batch of batchesOf(runEvents(turns, seed), cuts, shuffleSeed, repeatEvery)) {
            arrived.push(...batch);
            const expected = rebuild(arrived, options);
            const full = rebuildWithCheckpoint(arrived, options);
            expect(full.decisions).toEqual(expected);

            const checkpoint = stored?.checkpoint ? readRebuildCheckpoint(roundTrip(stored.checkpoint)) : null;
            let result: CheckpointedRebuild = full;
            if (stored && checkpoint) {
              expect(needsFullRebuild(checkpoint, batch, options)).toBe(false);
              result = resumeRebuild(
                { decisions: roundTrip(stored.decisions), checkpoint },
                tailFrom(arrived, checkpoint.nextTurn),
                options,
              );
              expect(result.rebuiltFromTurn).toBe(checkpoint.nextTurn);
              expect(result.decisions.turns.slice(0, result.unchanged.turns)).toEqual(
                stored.decisions.turns.slice(0, result.unchanged.turns),
              );
              // The same resume from what a store of the turns in parts hands over: no turns, only
              // their count and the turn numbers either side of the kept ones, and the findings.
              const kept = checkpoint.kept.turns;
              const base: ResumeBase = {
                checkpoint,
                runId: stored.decisions.runId,
                turns: {
                  count: stored.decisions.turns.length,
                  lastKept: kept > 0 ? stored.decisions.turns[kept - 1].turn : null,
                  firstRedone: stored.decisions.turns[kept]?.turn ?? null,
                },
                findings: roundTrip(stored.decisions.findings),
              };
              const tail = resumeRebuildTail(base, tailFrom(arrived, checkpoint.nextTurn), options);
              expect(tail.unchanged).toEqual(checkpoint.kept);
              expect({
                runId: base.runId,
                turns: [...stored.decisions.turns.slice(0, kept), ...tail.turns],
                findings: tail.findings,
              }).toEqual(expected);
              expect(roundTrip(tail.checkpoint)).toEqual(roundTrip(full.checkpoint));
              resumes++;
            }
            expect(result.decisions).toEqual(expected);
            expect(roundTrip(result.checkpoint)).toEqual(roundTrip(full.checkpoint));
            stored = { decisions: result.decisions, checkpoint: result.checkpoint };
          }
        },
      ),
      { numRuns: 30 },
    );
    expect(resumes).toBeGreaterThan(30); // most runs were resumed several times, not rebuilt in full
  });

  it("resumed from a checkpoint before any turn, gives the full rebuild (every finding code is in these runs)", () => {
    const cases: [number, RebuildOptions][] = [
      [1, {}],
      [2, { policy: otherPolicy(80), copy: otherCopy }],
    ];
    for (const [seed, options] of cases) {
      const events = runEvents(80, seed);
      const full = rebuild(events, options);
      if (!options.policy) expect(new Set(full.findings.map((finding) => finding.code)).size).toBe(FINDING_CODES.length);
      for (let turn = 1; turn < 80; turn++) {
        const first = rebuildWithCheckpoint(
          events.filter((event) => event.type !== "run.ended" && (turnOf(event) ?? 0) <= turn),
          options,
        );
        const checkpoint = readRebuildCheckpoint(roundTrip(first.checkpoint))!;
        expect(checkpoint.nextTurn).toBe(turn);
        const resumed = resumeRebuild({ decisions: first.decisions, checkpoint }, tailFrom(events, turn), options);
        expect(resumed.decisions).toEqual(full);
      }
    }
  });

  it("takes its checkpoint just before the last turn that has events, and none before a second turn", () => {
    const events = runEvents(40, 2);
    const upTo = (turn: number) => events.filter((event) => (turnOf(event) ?? -1) <= turn && event.type !== "run.ended");
    expect(rebuildWithCheckpoint(upTo(0)).checkpoint).toBeNull();
    expect(rebuildWithCheckpoint(upTo(1)).checkpoint?.nextTurn).toBe(1);
    const mid = rebuildWithCheckpoint(upTo(20));
    expect(mid.checkpoint?.nextTurn).toBe(20);
    expect(mid.checkpoint?.kept.turns).toBe(mid.decisions.turns.filter((t) => t.turn < 20).length);
    expect(mid.checkpoint?.kept.findings).toBe(mid.decisions.findings.filter((f) => f.turn !== null && f.turn < 20).length);
    expect(rebuildWithCheckpoint(events).checkpoint?.nextTurn).toBe(39); // an ended run too
  });

  it("keeps the decisions and findings of turns before nextTurn from the previous result without taking those turns again", () => {
    const events = runEvents(60, 4);
    const first = rebuildWithCheckpoint(events.filter((event) => event.type !== "run.ended" && (turnOf(event) ?? 0) <= 30));
    const checkpoint = first.checkpoint!;
    // Mark the kept prefix: a resume that took turns before nextTurn again would overwrite the marks.
    const marked: TRunDecisions = roundTrip(first.decisions);
    marked.turns.forEach((turn, i) => i < checkpoint.kept.turns && (turn.requiredBytes = -1 - i));
    marked.findings.forEach((finding, i) => i < checkpoint.kept.findings && (finding.detail = `kept ${i}`));

    const resumed = resumeRebuild({ decisions: marked, checkpoint }, tailFrom(events, checkpoint.nextTurn));
    const full = rebuild(events);
    expect(resumed.unchanged).toEqual(checkpoint.kept);
    expect(resumed.decisions.turns.slice(0, checkpoint.kept.turns)).toEqual(marked.turns.slice(0, checkpoint.kept.turns));
    expect(resumed.decisions.findings.slice(0, checkpoint.kept.findings)).toEqual(marked.findings.slice(0, checkpoint.kept.findings));
    expect(resumed.decisions.turns.slice(checkpoint.kept.turns)).toEqual(full.turns.slice(checkpoint.kept.turns));
    expect(resumed.decisions.findings.slice(checkpoint.kept.findings)).toEqual(full.findings.slice(checkpoint.kept.findings));
    expect(resumed.decisions.findings.length).toBe(full.findings.length);
    expect(resumed.decisions.turns[0].requiredBytes).toBe(-1);
  });

  it("does not let the checkpoint grow with the run's length", () => {
    for (const seed of [1, 2]) {
      const size = (turns: number) => JSON.stringify(rebuildWithCheckpoint(runEvents(turns, seed)).checkpoint).length;
      const short = size(200);
      const long = size(2_000);
      expect(long / short).toBeLessThan(2);
    }
  });
});

describe("refusing a checkpoint", () => {
  const events = runEvents(60, 5);
  const firstHalf = events.filter((event) => event.type !== "run.ended" && (turnOf(event) ?? 0) <= 30);
  const first = rebuildWithCheckpoint(firstHalf);
  const checkpoint = first.checkpoint!;
  const policy = otherPolicy(60);
  const lateEvent: TEvent = { ...events.find((event) => turnOf(event) === checkpoint.nextTurn - 3)!, id: "late-1" };
  const onTimeEvent: TEvent = { ...events.find((event) => turnOf(event) === checkpoint.nextTurn)!, id: "on-time-1" };

  it.each<{
    name: string;
    checkpoint: RebuildCheckpoint;
    options?: RebuildOptions;
    decisions?: TRunDecisions;
    add?: TEvent;
    reason: string;
  }>([
    { name: "a late event (turn before nextTurn)", checkpoint, add: lateEvent, reason: "late_event" },
    { name: "other options (policy)", checkpoint, options: { policy }, reason: "options" },
    { name: "other options (copy)", checkpoint, options: { copy: otherCopy }, reason: "options" },
    {
      name: "options where the checkpoint had none given",
      checkpoint: rebuildWithCheckpoint(firstHalf, { policy }).checkpoint!,
      reason: "options",
    },
    { name: "another format version", checkpoint: { ...checkpoint, version: 2 } as unknown as RebuildCheckpoint, reason: "format" },
    {
      name: "decisions of an earlier rebuild",
      checkpoint,
      decisions: rebuild(events.filter((event) => event.type !== "run.ended" && (turnOf(event) ?? 0) <= 10)),
      reason: "decisions",
    },
    { name: "decisions of another run", checkpoint, decisions: { ...first.decisions, runId: "other" }, reason: "decisions" },
  ])("refuses $name", ({ checkpoint: given, options, decisions, add, reason }) => {
    const tail = [...tailFrom(events, checkpoint.nextTurn), ...(add ? [add] : [])];
    if (reason !== "decisions") expect(needsFullRebuild(given, add ? [add, onTimeEvent] : [onTimeEvent], options)).toBe(true);
    const resume = () => resumeRebuild({ decisions: decisions ?? first.decisions, checkpoint: given }, tail, options);
    expect(resume).toThrow(RebuildCheckpointError);
    try {
      resume();
    } catch (error) {
      expect((error as RebuildCheckpointError).reason).toBe(reason);
    }
  });

  it("refuses a resume from parts that do not match the checkpoint (turn count, the turns either side of the kept ones, findings)", () => {
    const tail = tailFrom(events, checkpoint.nextTurn);
    const base = resumeBaseOf(first.decisions, checkpoint);
    expect(resumeRebuildTail(base, tail).turns).toEqual(rebuild(events).turns.slice(checkpoint.kept.turns));
    const wrong: ResumeBase[] = [
      { ...base, turns: { ...base.turns, count: checkpoint.kept.turns - 1 } },
      { ...base, turns: { ...base.turns, lastKept: checkpoint.nextTurn } },
      { ...base, turns: { ...base.turns, firstRedone: checkpoint.nextTurn - 1 } },
      { ...base, turns: { ...base.turns, firstRedone: null } },
      { ...base, findings: base.findings.slice(0, checkpoint.kept.findings - 1) },
      { ...base, runId: "other" },
    ];
    for (const given of wrong) {
      const error = (() => {
        try {
          resumeRebuildTail(given, tail);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(RebuildCheckpointError);
      expect((error as RebuildCheckpointError).reason).toBe("decisions");
    }
  });

  it("needsFullRebuild: no checkpoint, a late event, or none of those", () => {
    expect(needsFullRebuild(null, [onTimeEvent])).toBe(true);
    expect(needsFullRebuild(checkpoint, [onTimeEvent, lateEvent])).toBe(true);
    expect(needsFullRebuild(checkpoint, [onTimeEvent, events.at(-1)!])).toBe(false);
    expect(needsFullRebuild(checkpoint, [])).toBe(false);
  });

  it("reads back only a checkpoint of this format", () => {
    expect(readRebuildCheckpoint(roundTrip(checkpoint))).toEqual(checkpoint);
    expect(readRebuildCheckpoint({ ...roundTrip(checkpoint), version: 2 })).toBeNull();
    expect(readRebuildCheckpoint({ nextTurn: 3 })).toBeNull();
  });

  it("treats repeats, conflicting ids and run.started among the given events as rebuild does", () => {
    const tail = tailFrom(events, checkpoint.nextTurn);
    const previous = { decisions: first.decisions, checkpoint };
    const repeated = [...tail, ...tail.slice(0, 20).map((event) => structuredClone(event)), events[0]];
    expect(resumeRebuild(previous, repeated).decisions).toEqual(rebuild(events));

    const conflict = { ...tail[5], ts: "2030-01-01T00:00:00Z" } as TEvent;
    expect(() => rebuild([...events, conflict])).toThrow(RunInputError);
    expect(() => resumeRebuild(previous, [...tail, conflict])).toThrow(RunInputError);

    const secondStart = { ...events[0], id: "another-start" } as TEvent;
    expect(() => rebuild([...events, secondStart])).toThrow(RunInputError);
    expect(() => resumeRebuild(previous, [...tail, secondStart])).toThrow(RunInputError);
  });
});
