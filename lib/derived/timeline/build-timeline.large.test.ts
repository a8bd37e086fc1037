import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ZEvent, ZRunTimeline, type TEvent, type TMeterPoint, type TRunDecisions } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { buildTimeline, DEFAULT_MAX_POINTS } from "./build-timeline";
import { laneBuckets } from "./fold-lanes";
import { expandReminders, MARKER_STATUSES } from "./reminder-lanes";
import { round3 } from "./thresholds";

interface Case {
  turns: number;
  /** A generous ceiling on the JSON payload (bytes); the actual sizes are printed. */
  maxBytes: number;
  /** Whether its lists are long enough to be folded per bucket of turns. */
  folded: boolean;
}

// One ceiling for both: a timeline's size is bounded by its point budget, not by the run's length.
const CASES: Case[] = [
  { turns: 2_000, maxBytes: 600_000, folded: false },
  { turns: 20_000, maxBytes: 600_000, folded: true },
];

function generated(turns: number): { events: TEvent[]; decisions: TRunDecisions } {
  const run = generateEtfRun({ turns, seed: 11, anomalies: true, anomalyRepeats: 3 });
  const events = run.events.map((event) => ZEvent.parse(event));
  return { events, decisions: rebuild(events) };
}

describe.each(CASES)("buildTimeline on a generated $turns-turn run", ({ turns, maxBytes, folded }) => {
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
    expect(timeline.lanesFolded ?? false).toBe(folded);
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
      const lane = timeline.reminders[key];
      if (lane.every((item) => item.count === undefined)) {
        expect(byTurnAndSubject(expandReminders(lane, rebuilt))).toEqual(byTurnAndSubject(expected));
        continue;
      }
      // Folded: each reminder is counted by exactly one item of its subject, status (and stage, but
      // for review) that spans its turn and bounds its bytes and free bytes.
      for (const subject of new Set(lane.map((item) => item.subject))) {
        expect(lane.filter((item) => item.subject === subject).length).toBeLessThanOrEqual(DEFAULT_MAX_POINTS * 2);
      }
      const counted = new Map(lane.map((item) => [item, 0]));
      for (const reminder of expected) {
        const holders = lane.filter(
          (item) =>
            item.turn <= reminder.turn &&
            reminder.turn <= (item.toTurn ?? item.turn) &&
            item.subject === reminder.subject &&
            item.status === reminder.status &&
            (key === "review" || item.stage === reminder.stage),
        );
        expect(holders.length, `${key} reminder at turn ${reminder.turn}`).toBeGreaterThan(0);
        const holder = holders[0];
        counted.set(holder, counted.get(holder)! + 1);
        expect(holder.bytes).toBeGreaterThanOrEqual(reminder.bytes);
        if (reminder.freeBytes !== undefined) expect(holder.freeBytes).toBeLessThanOrEqual(reminder.freeBytes);
      }
      // A folded item counts what it stands for; a lossless run of one reminder, each turn it spans.
      const represented = (item: (typeof lane)[number]) => item.count ?? expandReminders([item], rebuilt).length;
      expect(lane.reduce((n, item) => n + represented(item), 0)).toBe(expected.length);
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

  it("never drops a marker turn from a series while they fit the budget, else keeps one in each bucket", () => {
    const findingTurns = new Set(timeline.findings.filter((f) => f.toTurn === undefined).map((f) => f.turn));
    const compactionTurns = new Set(events.flatMap((e) => (e.type === "context.compaction" ? [e.turn] : [])));
    const bucketOf = laneBuckets(timeline.turnRange, DEFAULT_MAX_POINTS);
    const expectKept = (label: string, points: readonly TMeterPoint[], pins: Set<number>) => {
      const kept = new Set(points.map((p) => p.turn));
      const keptBuckets = new Set(points.map((p) => bucketOf(p.turn)));
      const fits = pins.size <= DEFAULT_MAX_POINTS;
      for (const turn of pins) {
        if (fits) expect(kept, `${label} turn ${turn}`).toContain(turn);
        else expect(keptBuckets, `${label} bucket of turn ${turn}`).toContain(bucketOf(turn));
      }
      expect(points.length).toBeLessThanOrEqual(2 * DEFAULT_MAX_POINTS + 4);
    };
    const charts: [string, TMeterPoint[], (t: number) => boolean][] = [
      ["requests", timeline.requests!.points, () => false],
      ["time", timeline.time!.points, () => false],
      ["context", timeline.context!.points, (t) => compactionTurns.has(t)],
    ];
    for (const [key, points, extra] of charts) {
      const markers = markerTurns(
        decisions,
        (r) => r.key === key,
        (m) => stageOf(m, key),
      );
      const pins = new Set([...markers, ...findingTurns, ...rebuilt.filter(extra)].filter((t) => byTurnHas(decisions, t)));
      expectKept(key, points, pins);
    }
    for (const block of timeline.edits!.blocks) {
      const markers = markerTurns(
        decisions,
        (r) => r.key === "edits" && r.subject === block.blockId,
        (m) => m.edits?.find((b) => b.blockId === block.blockId)?.stage,
      );
      expectKept(block.blockId, block.points, markers);
    }
  });

  it("counts every compaction, Reviewer item, notification and finding of the run, listed or folded", () => {
    const count = (type: string) => events.filter((e) => e.type === type).length;
    const sum = (items: readonly { count?: number }[]) => items.reduce((n, item) => n + (item.count ?? 1), 0);
    expect(sum(timeline.context!.compactions)).toBe(count("context.compaction"));
    expect(sum(timeline.notifications)).toBe(count("user.notified"));
    expect(sum(timeline.reviewer.rebuilt)).toBe(decisions.turns.filter((t) => t.reviewer).length);
    const findings = decisions.findings.filter((f) => f.turn !== null).length;
    expect(timeline.findings.reduce((n, f) => n + f.count, 0)).toBe(findings);
    const candidates = new Set(events.flatMap((e) => (e.type === "reviewer.candidate" ? [e.body.candidateId] : []))).size;
    const buckets = timeline.reviewer.chainBuckets;
    if (!folded) {
      expect(buckets).toBeUndefined();
      const chains = timeline.reviewer.chains;
      expect(timeline.context!.compactions).toHaveLength(count("context.compaction"));
      expect(timeline.notifications).toHaveLength(count("user.notified"));
      expect(chains.flatMap((c) => c.dispatches)).toHaveLength(count("reviewer.dispatched"));
      expect(chains.flatMap((c) => c.admissions)).toHaveLength(count("reviewer.admission"));
      expect(chains.filter((c) => c.turn !== null)).toHaveLength(candidates);
      expect(timeline.reviewer.rebuilt).toHaveLength(decisions.turns.filter((t) => t.reviewer).length);
      return;
    }
    expect(timeline.reviewer.chains).toEqual([]);
    const total = (field: "chains" | "dispatches" | "granted" | "denied") => buckets!.reduce((n, b) => n + b[field], 0);
    expect(total("chains")).toBeGreaterThanOrEqual(candidates);
    expect(total("dispatches")).toBe(count("reviewer.dispatched"));
    expect(total("granted") + total("denied")).toBe(count("reviewer.admission"));
    for (const list of [timeline.context!.compactions, timeline.notifications, timeline.reviewer.rebuilt, buckets!]) {
      expect(list.length).toBeLessThanOrEqual(DEFAULT_MAX_POINTS);
    }
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
