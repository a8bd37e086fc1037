import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { testDatabases } from "@/lib/server/testing/databases";
import { getRunTimeline } from "./run-timeline";
import { readWindowChunks } from "./stored-decisions";
import { loadWindowTimelineEvents } from "./timeline-events";
import { taskThreads } from "@/lib/server/background/tasks";

/** A generated run's events (ids made unique per run), as ingested and as the core reads them. */
function etfRun(runId: string, seed: number, turns: number): TEvent[] {
  return generateEtfRun({ runId, seed, turns, anomalies: true }).events.map(
    (e) => ZEvent.parse({ ...e, id: `${runId}:${e.id}` }) as TEvent,
  );
}

/** Events of a run at a turn, [type, body], with ids of their own; ts a second past the turn's start. */
function at(runId: string, turn: number, list: [string, Record<string, unknown>][]): TEvent[] {
  return list.map(([type, body], i) =>
    ZEvent.parse({
      id: `${runId}:x-${turn}-${i}-${type}`,
      runId,
      type,
      turn,
      ts: new Date(Date.UTC(2026, 0, 1) + turn * 60_000 + 1_000 + i).toISOString(),
      body,
    }),
  );
}

/**
 * Reviewer chains and lane items placed on and across the edges of the window [100, 150] (and the
 * run's start and end), beside the generated run's own.
 */
function edgeEvents(runId: string, lastTurn: number): TEvent[] {
  return [
    // Dispatched before the window, completed after it: no item inside.
    ...at(runId, 40, [
      ["reviewer.candidate", { candidateId: "x-across", checkpoint: 4 }],
      ["reviewer.admission", { candidateId: "x-across", granted: true, reasons: [] }],
    ]),
    ...at(runId, 45, [["reviewer.dispatched", { candidateId: "x-across", dispatchId: "dx-across" }]]),
    ...at(runId, 160, [["reviewer.completed", { dispatchId: "dx-across", verdict: "ok" }]]),
    // A second completion of that dispatch: stray, after the window.
    ...at(runId, 170, [["reviewer.completed", { dispatchId: "dx-across" }]]),
    // Dispatched before the window, never completed: open to the run's end.
    ...at(runId, 90, [["reviewer.dispatched", { candidateId: "x-open", dispatchId: "dx-open" }]]),
    // A candidate before the window, cancelled after it.
    ...at(runId, 95, [["reviewer.candidate", { candidateId: "x-cancelled" }]]),
    ...at(runId, 155, [["reviewer.cancelled", { candidateId: "x-cancelled", reason: "superseded" }]]),
    // Stray completions on the window's edges, and one just outside.
    ...at(runId, 100, [["reviewer.completed", { dispatchId: "dx-stray" }]]),
    ...at(runId, 150, [["reviewer.completed", { dispatchId: "dx-stray" }]]),
    ...at(runId, 151, [["reviewer.completed", { dispatchId: "dx-stray-out" }]]),
    // A chain before the window whose candidate is sent again inside it (the lane ignores the repeat).
    ...at(runId, 20, [["reviewer.candidate", { candidateId: "x-before" }]]),
    ...at(runId, 120, [["reviewer.candidate", { candidateId: "x-before" }]]),
    // Compactions and notifications on the edges and just outside them.
    ...[99, 100, 150, 151].flatMap((turn) =>
      at(runId, turn, [
        ["context.compaction", { originalBytes: 9_000 + turn, candidateBytes: 4_000 + turn, outcome: "adopted" }],
        ["user.notified", { channel: "edge", message: `turn ${turn}` }],
      ]),
    ),
    // A short chain far after the window (a late event makes it span the window, below).
    ...at(runId, 250, [["reviewer.candidate", { candidateId: "x-far" }]]),
    // At the run's start and end.
    ...at(runId, 0, [["reviewer.dispatched", { candidateId: "x-first", dispatchId: "dx-first" }]]),
    ...at(runId, 1, [["reviewer.completed", { dispatchId: "dx-first" }]]),
    ...at(runId, lastTurn, [
      ["reviewer.candidate", { candidateId: "x-last" }],
      ["reviewer.dispatched", { candidateId: "x-last", dispatchId: "dx-last" }],
      ["user.notified", { channel: "edge", message: "last turn" }],
    ]),
  ];
}

describe.each(testDatabases())("a zoomed timeline's events on $name", (kind) => {
  let db: Database;
  let projectId: string;
  const threads = taskThreads(0);

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "timeline-window")).secret}`)).projectId;
  }, 60_000);
  afterAll(async () => db?.close());

  async function runOf(runId: string) {
    return db.prisma.run.findUniqueOrThrow({
      where: { projectId_runId: { projectId, runId } },
      select: { id: true, projectId: true, runId: true },
    });
  }

  async function ingest(events: readonly TEvent[]) {
    for (let i = 0; i < events.length; i += 2_000)
      expect((await ingestBatch(db, projectId, events.slice(i, i + 2_000))).summary.error).toBe(0);
  }

  /** The window's events as the timeline reads them, with the stored rebuild's row (or its spans left out: a row stored before them). */
  async function windowRead(run: { id: string; projectId: string; runId: string }, from: number, to: number, withSpans = true) {
    const stored = (await readWindowChunks(db, run, from, to))!;
    const { eventCount } = await db.prisma.run.findUniqueOrThrow({ where: { projectId_id: { projectId, id: run.id } } });
    return loadWindowTimelineEvents(db, run, {
      from,
      to,
      end: stored.runTurnRange?.[1] ?? 0,
      maxSeq: stored.head.maxSeq,
      stale: eventCount !== stored.head.eventCount,
      reviewerSpans: withSpans ? stored.reviewerSpans : null,
    });
  }

  it("draws every window as buildTimeline does with all of the run's events, to the byte", async () => {
    const runId = "edges";
    const generated = etfRun(runId, 11, 300);
    const lastTurn = Math.max(...generated.map((e) => ("turn" in e && typeof e.turn === "number" ? e.turn : 0)));
    const events = [...generated, ...edgeEvents(runId, lastTurn)];
    await ingest(events);
    const run = await runOf(runId);
    expect(await rebuildRun(db, threads, projectId, run.id)).toMatchObject({ ok: true });

    let decisions = rebuild(events);
    const windows: { from?: number; to?: number; maxPoints?: number }[] = [
      { from: 100, to: 150 },
      { from: 100, to: 150, maxPoints: 4 },
      { from: 100, to: 100 },
      { from: 150, to: 150 },
      { from: 101, to: 149 },
      { from: 46, to: 89 },
      { from: 0, to: 0 },
      { from: 0, to: 30 },
      { to: 40 },
      { from: lastTurn - 30, to: lastTurn },
      { from: lastTurn, to: lastTurn },
      { from: lastTurn - 5, to: lastTurn + 100 },
      { from: 200 },
      { from: lastTurn + 1, to: lastTurn + 50 },
      { from: 5_000, to: 6_000 },
    ];
    const drawn = async (all: readonly TEvent[], label: string) => {
      const types = new Set<string>(TIMELINE_EVENT_TYPES);
      const timelineEvents = all.filter((e) => types.has(e.type));
      for (const { from, to, maxPoints } of windows) {
        const options = { fromTurn: from, toTurn: to, maxPoints };
        const whole = JSON.stringify(buildTimeline(decisions, timelineEvents, options));
        const timeline = await getRunTimeline(db, projectId, runId, { from, to, maxPoints });
        expect(JSON.stringify(timeline), `${label} ${JSON.stringify({ from, to, maxPoints })}`).toBe(whole);
        // A row stored before the long chains were: all of the run's Reviewer events are read instead.
        const old = await windowRead(run, from ?? 0, to ?? Number.POSITIVE_INFINITY, false);
        const runTurnRange: [number, number] = [decisions.turns[0].turn, decisions.turns.at(-1)!.turn];
        expect(JSON.stringify(buildTimeline(decisions, old.events, { ...options, runTurnRange })), `${label} without spans`).toBe(whole);
      }
    };
    await drawn(events, "rebuilt");
    // The edges were reached: the window [100, 150] holds the chains across it and the strays on it.
    const edges = await getRunTimeline(db, projectId, runId, { from: 100, to: 150 });
    const ids = edges.reviewer.chains.map((c) => c.candidateId);
    expect(ids).toEqual(expect.arrayContaining(["x-across", "x-open", "x-cancelled"]));
    expect(ids).not.toContain("x-before");
    expect(edges.reviewer.strayCompletions.filter((s) => s.dispatchId.startsWith("dx-"))).toEqual([
      { turn: 100, dispatchId: "dx-stray" },
      { turn: 150, dispatchId: "dx-stray" },
    ]);
    expect(edges.notifications.filter((n) => n.channel === "edge").map((n) => n.turn)).toEqual([100, 150]);

    // Events that arrived after the rebuild (it is stale; the page still draws it): they change
    // chains the rebuild saw as short or long, and the stored long chains no longer say so.
    const late = [
      ...at(runId, 200, [["reviewer.completed", { dispatchId: "dx-open" }]]),
      ...at(runId, 210, [["reviewer.cancelled", { candidateId: "x-before", reason: "late" }]]),
      ...at(runId, 125, [["reviewer.completed", { dispatchId: "dx-last" }]]),
      ...at(runId, 60, [["reviewer.dispatched", { candidateId: "x-late", dispatchId: "dx-late" }]]),
      ...at(runId, 100, [["user.notified", { channel: "edge", message: "late" }]]),
      ...at(runId, 10, [["reviewer.admission", { candidateId: "x-far", granted: false, reasons: ["late"] }]]),
    ];
    await ingest(late);
    await drawn([...events, ...late], "stale");
    const stale = await getRunTimeline(db, projectId, runId, { from: 100, to: 150 });
    expect(stale.reviewer.chains.map((c) => c.candidateId)).toEqual(expect.arrayContaining(["x-before", "x-late", "x-open", "x-far"]));
    // dx-last completes before it was dispatched (turn 125 < the last turn): a stray in the window.
    expect(stale.reviewer.strayCompletions).toContainEqual({ turn: 125, dispatchId: "dx-last" });

    // Rebuilt, then resumed (the new events are past its checkpoint): the stored long chains are
    // the resumed run's.
    expect(await rebuildRun(db, threads, projectId, run.id)).toMatchObject({ ok: true, mode: "full" });
    const after = [
      ...at(runId, lastTurn + 1, [
        ["reviewer.completed", { dispatchId: "dx-late" }],
        ["reviewer.candidate", { candidateId: "x-new" }],
      ]),
    ];
    await ingest(after);
    expect(await rebuildRun(db, threads, projectId, run.id)).toMatchObject({ ok: true, mode: "resumed" });
    const now = [...events, ...late, ...after];
    decisions = rebuild(now);
    await drawn(now, "resumed");
  }, 180_000);

  it("reads event bodies for the window and its chains only: a run ten times as long reads as many", async () => {
    // The same first 200 turns; the long run has 2,000 turns more of compactions, notifications and
    // whole Reviewer chains after them (the window's chains are not among them).
    const head = (runId: string) => [
      ...etfRun(runId, 12, 200).filter((e) => e.type === "run.started" || ("turn" in e && typeof e.turn === "number" && e.turn < 200)),
      ...edgeEvents(runId, 199),
    ];
    const tail = (runId: string) =>
      Array.from({ length: 2_000 }, (_, i) => 300 + i).flatMap((turn) =>
        at(runId, turn, [
          ["context.compaction", { originalBytes: 9_000, candidateBytes: 4_000, outcome: "adopted" }],
          ["user.notified", { channel: "tail", message: `turn ${turn}` }],
          ["reviewer.candidate", { candidateId: `t-${turn}` }],
          ["reviewer.dispatched", { candidateId: `t-${turn}`, dispatchId: `dt-${turn}` }],
          ["reviewer.completed", { dispatchId: `dt-${turn}` }],
        ]),
      );
    await ingest(head("short"));
    await ingest([...head("long"), ...tail("long")]);
    const short = await runOf("short");
    const long = await runOf("long");
    for (const run of [short, long]) expect(await rebuildRun(db, threads, projectId, run.id)).toMatchObject({ ok: true });
    for (const [from, to] of [
      [100, 150],
      [0, 30],
      [180, 199],
    ]) {
      const a = await windowRead(short, from, to);
      const b = await windowRead(long, from, to);
      expect(b.bodyRows).toBe(a.bodyRows);

      expect(b.statements).toBe(a.statements);
      // Independently: the window's compactions and notifications, the run.started, and the Reviewer
      // events of the chains the whole-run lane shows in the window (here: none shares a dispatchId
      // with a chain outside it), plus the window's stray completions.
      const all = head("short");
      const window = buildTimeline({ runId: "short", turns: [], findings: [] }, all, {
        fromTurn: from,
        toTurn: to,
        runTurnRange: [0, 199],
      });
      const shown = new Set(window.reviewer.chains.map((c) => c.candidateId));
      const strays = new Set(window.reviewer.strayCompletions.map((s) => s.dispatchId));
      const dispatchIds = new Set(window.reviewer.chains.flatMap((c) => c.dispatches.map((d) => d.dispatchId)));
      const expected = all.filter((e) => {
        if (e.type === "run.started") return true;
        if (e.type === "context.compaction" || e.type === "user.notified") return e.turn >= from && e.turn <= to;
        if (e.type === "reviewer.completed") return dispatchIds.has(e.body.dispatchId) || strays.has(e.body.dispatchId);
        if (e.type.startsWith("reviewer.")) return shown.has((e.body as { candidateId: string }).candidateId);
        return false;
      });
      expect(a.events.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort());
    }
  }, 180_000);
});
