import { describe, expect, it } from "vitest";
import { ZEvent, ZRunTimeline, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { workedExampleCopy, workedExamplePolicy } from "@/lib/testing/contract-text";
import { buildTimeline } from "./build-timeline";

/** Raw events of contract §9's teaching scene, plus time, a compaction, a Reviewer chain and a skipped turn. */
function teachingEvents(): TEvent[] {
  const raw: Record<string, unknown>[] = [];
  const add = (type: string, turn: number | undefined, body: Record<string, unknown>) =>
    raw.push({
      id: `e-${String(raw.length + 1).padStart(4, "0")}`,
      runId: "teach",
      type,
      ts: new Date(Date.UTC(2026, 10, 29, 10) + raw.length * 1000).toISOString(),
      ...(turn === undefined ? {} : { turn }),
      body,
    });
  add("run.started", undefined, {
    task: "teach",
    // Contract §9's setup tables, plus a time meter.
    policy: { ...workedExamplePolicy(), time: { limitMs: 1_800_000, stages: [0.9] } },
    copy: workedExampleCopy(),
  });
  add("meter.requests", 9, { used: 17 });
  add("meter.time", 9, { elapsedMs: 540_000 });
  add("request.final", 9, { requiredBytes: 5000 });
  add("request.submitted", 9, { outcome: "ok" });
  add("meter.requests", 10, { used: 28 });
  add("meter.time", 10, { elapsedMs: 600_000 });
  add("block.edited", 10, { blockId: "b1", used: 2 });
  add("request.final", 10, { requiredBytes: 9962 });
  add("reviewer.candidate", 10, { candidateId: "rc-1", checkpoint: 1 });
  add("reviewer.admission", 10, { candidateId: "rc-1", granted: true, reasons: [] });
  add("reviewer.dispatched", 10, { candidateId: "rc-1", dispatchId: "rd-1" });
  add("user.notified", 10, { channel: "ui", message: "Reviewer is checking the draft (checkpoint 1)." });
  add("request.submitted", 10, { outcome: "ok" });
  add("meter.requests", 11, { used: 29 });
  add("meter.time", 11, { elapsedMs: 630_000 });
  add("context.compaction", 11, { originalBytes: 12000, candidateBytes: 8000, outcome: "adopted" });
  add("request.final", 11, { requiredBytes: 8000 });
  add("request.submitted", 11, { outcome: "ok" });
  add("reviewer.completed", 12, { dispatchId: "rd-1", verdict: "no_issues" });
  add("run.ended", undefined, { status: "stopped", reason: "edit_quota_exhausted" });
  return raw.map((event) => ZEvent.parse(event));
}

const events = teachingEvents();
const decisions = rebuild(events);
const timeline = buildTimeline(decisions, events);

describe("buildTimeline on contract §9's teaching scene", () => {
  it("is a valid, JSON-safe ZRunTimeline", () => {
    expect(ZRunTimeline.parse(timeline)).toEqual(timeline);
    expect(JSON.parse(JSON.stringify(timeline))).toEqual(timeline);
  });

  it("puts every meter in its own unit, with thresholds converted into that unit", () => {
    expect(timeline.requests).toEqual({
      unit: "requests",
      limit: 40,
      reserve: 4,
      usable: 36,
      thresholds: [
        { stage: 1, ratio: 0.5, value: 18 },
        { stage: 2, ratio: 0.75, value: 27 },
        { stage: 3, ratio: 0.9, value: 32.4 },
      ],
      points: [
        { turn: 9, value: 17, stage: 0 },
        { turn: 10, value: 28, stage: 2 },
        { turn: 11, value: 29, stage: 2 },
      ],
    });
    expect(timeline.time).toEqual({
      unit: "min",
      limit: 30,
      thresholds: [{ stage: 1, ratio: 0.9, value: 27 }],
      points: [
        { turn: 9, value: 9, stage: 0 },
        { turn: 10, value: 10, stage: 0 },
        { turn: 11, value: 10.5, stage: 0 },
      ],
    });
    expect(timeline.context).toEqual({
      unit: "bytes",
      capacity: 10000,
      thresholds: [
        { stage: 1, ratio: 0.7, value: 7000 },
        { stage: 2, ratio: 0.85, value: 8500 },
        { stage: 3, ratio: 0.95, value: 9500 },
      ],
      points: [
        { turn: 9, value: 5000, stage: 0 },
        { turn: 10, value: 9962, stage: 3 },
        { turn: 11, value: 8000, stage: 1 },
      ],
      compactions: [{ turn: 11, originalBytes: 12000, candidateBytes: 8000, outcome: "adopted" }],
    });
    expect(timeline.edits).toEqual({
      unit: "edits",
      perBlockLimit: 4,
      stageRatios: [0.5, 1],
      blocks: [
        {
          blockId: "b1",
          limit: 4,
          thresholds: [
            { stage: 1, ratio: 0.5, value: 2 },
            { stage: 2, ratio: 1, value: 4 },
          ],
          points: [
            { turn: 10, value: 2, stage: 1 },
            { turn: 11, value: 2, stage: 1 },
          ],
        },
      ],
    });
  });

  it("lists each meter's reminders, dropped ones with the bytes needed and free, folding identical runs", () => {
    expect(timeline.reminders).toEqual({
      requests: [{ turn: 10, stage: 2, status: "delivered", bytes: 19 }],
      time: [],
      context: [
        { turn: 10, stage: 3, status: "dropped", bytes: 21, freeBytes: 19 },
        { turn: 11, stage: 1, status: "delivered", bytes: 21 },
      ],
      edits: [{ turn: 10, toTurn: 11, subject: "b1", stage: 1, status: "delivered", bytes: 17 }],
      review: [
        { turn: 10, stage: 1, status: "dropped", bytes: 20, freeBytes: 2 },
        { turn: 11, stage: 1, status: "delivered", bytes: 20 },
      ],
    });
  });

  it("draws the Reviewer lane from the rebuild and the recorded chain, apart", () => {
    expect(timeline.reviewer).toEqual({
      schedule: { everyTurns: 10, afterMin: null },
      admission: { autoReviewAllowed: true, minRequestsLeft: 8 },
      rebuilt: [{ turn: 10, checkpoint: 1, granted: true, reasons: [] }],
      chains: [
        {
          candidateId: "rc-1",
          turn: 10,
          checkpoint: 1,
          admissions: [{ turn: 10, granted: true, reasons: [] }],
          dispatches: [{ dispatchId: "rd-1", turn: 10, doneTurn: 12, verdict: "no_issues" }],
        },
      ],
      strayCompletions: [],
    });
    expect(timeline.notifications).toEqual([{ turn: 10, channel: "ui", message: "Reviewer is checking the draft (checkpoint 1)." }]);
  });

  it("marks skipped turns and findings, and the turn ranges", () => {
    expect(timeline).toMatchObject({
      runId: "teach",
      runTurnRange: [9, 11],
      turnRange: [9, 11],
      rebuiltTurns: [[9, 11]],
      skippedTurns: [12],
      sourceTurns: 3,
      downsampled: false,
      findings: [{ turn: 12, code: "INCOMPLETE_TURN", count: 1 }],
      runFindings: [{ code: "GLOBAL_STOP_ON_LOCAL_QUOTA", count: 1 }],
    });
  });

  it("is deterministic: arrival order and repeats do not change it", () => {
    const shuffled = [...events].reverse();
    shuffled.splice(5, 0, events[7]);
    expect(buildTimeline(rebuild(shuffled), shuffled)).toEqual(timeline);
    expect(JSON.stringify(buildTimeline(decisions, events))).toBe(JSON.stringify(timeline));
  });

  it("does not modify its inputs", () => {
    const before = JSON.stringify([decisions, events]);
    buildTimeline(decisions, events, { maxPoints: 4 });
    expect(JSON.stringify([decisions, events])).toBe(before);
  });
});

describe("buildTimeline options", () => {
  it.each([
    ["one turn", { fromTurn: 10, toTurn: 10 }, [10, 10], [[10, 10]], 1, []],
    ["from a turn on", { fromTurn: 11 }, [11, 11], [[11, 11]], 1, [12]],
    ["up to a turn", { toTurn: 9 }, [9, 9], [[9, 9]], 1, []],
    ["an empty window", { fromTurn: 100 }, null, [], 0, []],
  ] as [string, { fromTurn?: number; toTurn?: number }, [number, number] | null, [number, number][], number, number[]][])(
    "window: %s",
    (_, window, turnRange, rebuiltTurns, sourceTurns, skippedTurns) => {
      const t = buildTimeline(decisions, events, window);
      expect(ZRunTimeline.safeParse(t).success).toBe(true);
      expect(t.runTurnRange).toEqual([9, 11]);
      expect(t.turnRange).toEqual(turnRange);
      expect(t.rebuiltTurns).toEqual(rebuiltTurns);
      expect(t.sourceTurns).toBe(sourceTurns);
      expect(t.skippedTurns).toEqual(skippedTurns);
      const inside = (turn: number) => turn >= (window.fromTurn ?? 0) && turn <= (window.toTurn ?? Infinity);
      for (const chart of [t.requests!, t.time!, t.context!]) for (const p of chart.points) expect(inside(p.turn)).toBe(true);
      for (const lane of Object.values(t.reminders)) for (const r of lane) expect(inside(r.turn) && inside(r.toTurn ?? r.turn)).toBe(true);
      for (const c of t.context!.compactions) expect(inside(c.turn)).toBe(true);
      for (const f of t.findings) expect(inside(f.turn)).toBe(true);
    },
  );

  it("keeps a Reviewer chain whose dispatch spans the window", () => {
    expect(buildTimeline(decisions, events, { fromTurn: 11, toTurn: 11 }).reviewer.chains.map((c) => c.candidateId)).toEqual(["rc-1"]);
  });

  it("uses a replayed policy when given, and switches off the meters it lacks", () => {
    const t = buildTimeline(decisions, events, { policy: { requests: { limit: 40, deliveryReserve: 0, stages: [0.5] } } });
    expect(t.requests?.thresholds).toEqual([{ stage: 1, ratio: 0.5, value: 20 }]);
    expect([t.time, t.context, t.edits, t.reviewer.schedule, t.reviewer.admission]).toEqual([null, null, null, null, null]);
  });
});
