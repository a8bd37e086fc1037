import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ZEvent, ZRunTimeline, type TEvent, type TMeterPoint, type TRunDecisions } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { buildTimeline, DEFAULT_MAX_POINTS } from "./build-timeline";
import { expandReminders, MARKER_STATUSES } from "./reminder-lanes";
import { round3 } from "./thresholds";

interface Case {
  turns: number;
  /** A generous ceiling on the JSON payload (bytes); the actual sizes are printed. */
  maxBytes: number;
}

const CASES: Case[] = [
  { turns: 2_000, maxBytes: 300_000 },
  { turns: 20_000, maxBytes: 2_000_000 },
];

function generated(turns: number): { events: TEvent[]; decisions: TRunDecisions } {
  const run = generateEtfRun({ turns, seed: 11, anomalies: true, anomalyRepeats: 3 });
  const events = run.events.map((event) => ZEvent.parse(event));
  return { events, decisions: rebuild(events) };
}

describe.each(CASES)("buildTimeline on a generated $turns-turn run", ({ turns, maxBytes }) => {
  const { events, decisions } = generated(turns);
  const started = performance.now();
  const timeline = buildTimeline(decisions, events);
  const elapsed = performance.now() - started;
  const json = JSON.stringify(timeline);
  const rebuilt = decisions.turns.map((t) => t.turn);

  it("is a valid ZRunTimeline of a sensible size", () => {
    expect(ZRunTimeline.parse(JSON.parse(json))).toEqual(timeline);
    const counts = {
      requests: timeline.requests!.points.length,
      time: timeline.time!.points.length,
      context: timeline.context!.points.length,
      blocks: timeline.edits!.blocks.map((b) => b.points.length),
      reminders: Object.fromEntries(Object.entries(timeline.reminders).map(([k, v]) => [k, v.length])),
      compactions: timeline.context!.compactions.length,
      chains: timeline.reviewer.chains.length,
      notifications: timeline.notifications.length,
    };
    const gzipped = gzipSync(json).length;
    console.log(
      `${turns} turns: ${json.length.toLocaleString("en-US")} B JSON (${gzipped.toLocaleString("en-US")} B gzipped), built in ${elapsed.toFixed(0)} ms`,
      JSON.stringify(counts),
    );
    expect(json.length).toBeLessThan(maxBytes);
    expect(timeline.downsampled).toBe(true);
    expect(timeline.sourceTurns).toBe(decisions.turns.length);
  });

  it("keeps every reminder of the decisions — every dropped one with its bytes and free bytes", () => {
    for (const key of ["requests", "time", "context", "edits", "review"] as const) {
      const expected = decisions.turns.flatMap(({ turn, reminders }) =>
        reminders
          .filter((r) => r.key === key)
          .map((r) => ({
            turn,
            ...(r.key === "edits" ? { subject: r.subject! } : {}),
            stage: r.stage,
            status: r.status,
            bytes: r.bytes,
            ...(r.status === "dropped" ? { freeBytes: r.freeBytes } : {}),
          })),
      );
      expect(byTurnAndSubject(expandReminders(timeline.reminders[key], rebuilt))).toEqual(byTurnAndSubject(expected));
    }
    const dropped = decisions.turns.flatMap((t) => t.reminders.filter((r) => r.status === "dropped"));
    expect(dropped.length).toBeGreaterThan(0);
  });

  it("gives every point in its chart's unit, and thresholds in that unit", () => {
    const byTurn = new Map(decisions.turns.map((t) => [t.turn, t.meters]));
    for (const p of timeline.requests!.points) expect(p.value).toBe(byTurn.get(p.turn)!.requests!.used);
    for (const p of timeline.time!.points) expect(p.value).toBe(round3(byTurn.get(p.turn)!.time!.elapsedMs / 60_000));
    for (const p of timeline.context!.points) expect(p.value).toBe(byTurn.get(p.turn)!.context!.requiredBytes);
    for (const block of timeline.edits!.blocks) {
      for (const p of block.points) {
        const meter = byTurn.get(p.turn)!.edits!.find((b) => b.blockId === block.blockId)!;
        expect([p.value, p.stage, p.limit ?? block.limit]).toEqual([meter.used, meter.stage, meter.limit]);
      }
      for (const t of block.thresholds) expect(t.value).toBe(round3(t.ratio * block.limit));
    }
    const { requests, time, context } = timeline;
    for (const t of requests!.thresholds) expect(t.value).toBe(round3(t.ratio * requests!.usable));
    for (const t of time!.thresholds) expect(t.value).toBe(round3(t.ratio * time!.limit));
    for (const t of context!.thresholds) expect(t.value).toBe(round3(t.ratio * context!.capacity));
    expect([requests!.unit, time!.unit, context!.unit, timeline.edits!.unit]).toEqual(["requests", "min", "bytes", "edits"]);
  });

  it("never drops a marker turn from a series, and keeps each series near the budget", () => {
    const findingTurns = new Set(timeline.findings.map((f) => f.turn));
    const compactionTurns = new Set(timeline.context!.compactions.map((c) => c.turn));
    const charts: [string, TMeterPoint[], (t: number) => boolean][] = [
      ["requests", timeline.requests!.points, () => false],
      ["time", timeline.time!.points, () => false],
      ["context", timeline.context!.points, (t) => compactionTurns.has(t)],
    ];
    for (const [key, points, extra] of charts) {
      const kept = new Set(points.map((p) => p.turn));
      const markers = markerTurns(
        decisions,
        (r) => r.key === key,
        (m) => stageOf(m, key),
      );
      for (const turn of [...markers, ...findingTurns].filter((t) => byTurnHas(decisions, t)))
        expect(kept, `${key} turn ${turn}`).toContain(turn);
      for (const turn of rebuilt) if (extra(turn)) expect(kept, `${key} compaction turn ${turn}`).toContain(turn);
      expect(points.length).toBeLessThanOrEqual(Math.max(DEFAULT_MAX_POINTS, markers.size + findingTurns.size + compactionTurns.size + 4));
    }
    for (const block of timeline.edits!.blocks) {
      const kept = new Set(block.points.map((p) => p.turn));
      const markers = markerTurns(
        decisions,
        (r) => r.key === "edits" && r.subject === block.blockId,
        (m) => m.edits?.find((b) => b.blockId === block.blockId)?.stage,
      );
      for (const turn of markers) expect(kept, `${block.blockId} turn ${turn}`).toContain(turn);
    }
  });

  it("keeps every compaction, Reviewer item and notification of the events", () => {
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(timeline.context!.compactions).toHaveLength(count("context.compaction"));
    expect(timeline.notifications).toHaveLength(count("user.notified"));
    const chains = timeline.reviewer.chains;
    expect(chains.flatMap((c) => c.dispatches)).toHaveLength(count("reviewer.dispatched"));
    expect(chains.flatMap((c) => c.admissions)).toHaveLength(count("reviewer.admission"));
    expect(chains.filter((c) => c.turn !== null)).toHaveLength(
      new Set(events.flatMap((e) => (e.type === "reviewer.candidate" ? [e.body.candidateId] : []))).size,
    );
    expect(timeline.reviewer.rebuilt).toHaveLength(decisions.turns.filter((t) => t.reviewer).length);
    const findings = decisions.findings.filter((f) => f.turn !== null).length;
    expect(timeline.findings.reduce((n, f) => n + f.count, 0)).toBe(findings);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(buildTimeline(decisions, events))).toBe(json);
  });

  it("draws a 1,000-turn window at full resolution", () => {
    const from = Math.floor(turns / 2);
    const window = buildTimeline(decisions, events, { fromTurn: from, toTurn: from + 999, maxPoints: 1000 });
    const size = JSON.stringify(window).length;
    console.log(`${turns} turns, window ${from}–${from + 999}: ${size.toLocaleString("en-US")} B JSON`);
    expect(window.turnRange).toEqual([from, from + 999]);
    expect(window.downsampled).toBe(false);
    expect(window.sourceTurns).toBe(1000 - window.skippedTurns.length);
    expect(size).toBeLessThan(250_000);
  });
});

/** Turns with a non-delivered reminder matching `which`, or a stage change of the meter read by `stage`. */
function markerTurns(
  decisions: TRunDecisions,
  which: (r: { key: string; subject: string | null }) => boolean,
  stage: (meters: TRunDecisions["turns"][number]["meters"]) => number | undefined,
): Set<number> {
  const turns = new Set<number>();
  let previous: number | undefined;
  for (const { turn, reminders, meters } of decisions.turns) {
    if (reminders.some((r) => which(r) && MARKER_STATUSES.has(r.status))) turns.add(turn);
    const current = stage(meters);
    if (current !== undefined && previous !== undefined && current !== previous) turns.add(turn);
    if (current !== undefined) previous = current;
  }
  return turns;
}

function stageOf(meters: TRunDecisions["turns"][number]["meters"], key: string): number | undefined {
  return key === "requests" ? meters.requests?.stage : key === "time" ? meters.time?.stage : meters.context?.stage;
}

function byTurnHas(decisions: TRunDecisions, turn: number): boolean {
  return decisions.turns.some((t) => t.turn === turn);
}

/** Sorted by turn, then subject (a folded lane expands run by run). */
function byTurnAndSubject<T extends { turn: number; subject?: string }>(items: T[]): T[] {
  return [...items].sort(
    (a, b) => a.turn - b.turn || ((a.subject ?? "") < (b.subject ?? "") ? -1 : (a.subject ?? "") > (b.subject ?? "") ? 1 : 0),
  );
}
