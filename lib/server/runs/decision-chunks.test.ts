import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent, type TRunDecisions, type TTurnDetail } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { testDatabases } from "@/lib/server/testing/databases";
import { chunkOfIndex, DECISION_CHUNK_TURNS } from "./decision-chunks";
import { getDecisions, getDecisionsJson, getTurnDetail } from "./run-reads";
import { getRunTimeline } from "./run-timeline";
import { taskThreads } from "@/lib/server/background/tasks";

/** A generated run's events (ids made unique per run), as ingested and as the core reads them. */
function etfRun(runId: string, seed: number, turns: number, drop: (event: TEvent) => boolean = () => false): TEvent[] {
  return generateEtfRun({ runId, seed, turns, anomalies: true })
    .events.map((e) => ZEvent.parse({ ...e, id: `${runId}:${e.id}` }) as TEvent)
    .filter((e) => !drop(e));
}

/** The turn inspector's answer as it was computed from the whole decisions, before they were stored in chunks. */
function wholeTurnDetail(
  decisions: TRunDecisions,
  turn: number,
): Pick<TTurnDetail, "decision" | "exists" | "findings" | "previousTurn" | "nextTurn"> {
  const set = new Set(decisions.turns.map((t) => t.turn));
  for (const f of decisions.findings) if (f.code === "INCOMPLETE_TURN" && f.turn !== null) set.add(f.turn);
  const existing = [...set].sort((a, b) => a - b);
  let at = 0;
  while (at < existing.length && existing[at] < turn) at++;
  return {
    decision: decisions.turns.find((t) => t.turn === turn) ?? null,
    exists: existing[at] === turn,
    findings: decisions.findings.filter((f) => f.turn === turn),
    previousTurn: at > 0 ? existing[at - 1] : null,
    nextTurn: existing[existing[at] === turn ? at + 1 : at] ?? null,
  };
}

describe.each(testDatabases())("decisions stored in chunks on $name", (kind) => {
  let db: Database;
  let projectId: string;
  const threads = taskThreads(0);

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "chunks")).secret}`)).projectId;
  }, 60_000);
  afterAll(async () => db?.close());

  async function runPkOf(runId: string): Promise<string> {
    return (await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } })).id;
  }

  async function ingestAndRebuild(runId: string, events: readonly TEvent[]) {
    for (let at = 0; at < events.length; at += 2_000)
      expect((await ingestBatch(db, projectId, events.slice(at, at + 2_000))).summary.error).toBe(0);
    return rebuildRun(db, threads, projectId, await runPkOf(runId));
  }

  async function chunkRows(runId: string) {
    return db.prisma.$queryRawUnsafe<{ chunk: number; firstTurn: number; lastTurn: number; turnCount: number; xmin: string }[]>(
      `SELECT "chunk", "first_turn" AS "firstTurn", "last_turn" AS "lastTurn", "turn_count" AS "turnCount", xmin::text AS "xmin"
         FROM "run_decision_chunks" WHERE "project_id" = $1 AND "run_pk" = $2 ORDER BY "chunk"`,
      projectId,
      await runPkOf(runId),
    );
  }

  // Turns whose request.final is left out are skipped (INCOMPLETE_TURN): some sit at chunk boundaries.
  const skipped = new Set([DECISION_CHUNK_TURNS - 1, DECISION_CHUNK_TURNS, DECISION_CHUNK_TURNS + 1, 2 * DECISION_CHUNK_TURNS + 3, 700]);
  const longEvents = etfRun("chunked", 7, 720, (e) => e.type === "request.final" && skipped.has(e.turn));

  it("serves GET …/decisions as the whole decisions' JSON text, to the byte, from chunks of DECISION_CHUNK_TURNS turns", async () => {
    const runs: [string, TEvent[]][] = [
      ["chunked", longEvents],
      ["short", etfRun("short", 2, 5)],
      ["two-chunks-exactly", etfRun("two-chunks-exactly", 3, 2 * DECISION_CHUNK_TURNS + 1)],
      ["turnless", etfRun("turnless", 4, 3).filter((e) => e.type === "run.started")],
    ];
    for (const [runId, events] of runs) {
      expect(await ingestAndRebuild(runId, events)).toMatchObject({ ok: true, mode: "full" });
      const decisions = rebuild(events);
      expect((await getDecisionsJson(db, projectId, runId)).json).toBe(JSON.stringify(decisions));
      const chunks = await chunkRows(runId);
      expect(chunks.map(({ xmin: _, ...chunk }) => chunk)).toEqual(
        Array.from({ length: Math.ceil(decisions.turns.length / DECISION_CHUNK_TURNS) }, (_, chunk) => {
          const turns = decisions.turns.slice(chunk * DECISION_CHUNK_TURNS, (chunk + 1) * DECISION_CHUNK_TURNS);
          return { chunk, firstTurn: turns[0].turn, lastTurn: turns.at(-1)!.turn, turnCount: turns.length };
        }),
      );
    }
    expect((await chunkRows("turnless")).length).toBe(0);
    expect((await chunkRows("chunked")).length).toBe(3);
  }, 120_000);

  it("answers every turn of the inspector from the chunk that holds it, across chunk boundaries and skipped turns", async () => {
    for (const [runId, events] of [
      ["chunked", longEvents],
      ["short", etfRun("short", 2, 5)],
      ["turnless", etfRun("turnless", 4, 3).filter((e) => e.type === "run.started")],
    ] as const) {
      const decisions = rebuild(events);
      const incomplete = decisions.findings.filter((f) => f.code === "INCOMPLETE_TURN").map((f) => f.turn);
      if (runId === "chunked") expect(incomplete).toEqual(expect.arrayContaining([...skipped]));
      const last = decisions.turns.at(-1)?.turn ?? 0;
      for (let turn = 0; turn <= last + 2; turn++) {
        const detail = await getTurnDetail(db, projectId, runId, turn);
        expect(detail).toMatchObject({ turn, ...wholeTurnDetail(decisions, turn) });
      }
    }
  }, 120_000);

  it("draws a window of turns from the chunks that overlap it as the whole decisions would", async () => {
    const decisions = rebuild(longEvents);
    const types = new Set<string>(TIMELINE_EVENT_TYPES);
    const events = longEvents.filter((e) => types.has(e.type));
    const windows: { from?: number; to?: number; maxPoints?: number }[] = [
      { from: 0, to: 10 },
      { from: DECISION_CHUNK_TURNS - 5, to: DECISION_CHUNK_TURNS + 5 },
      { from: DECISION_CHUNK_TURNS, to: DECISION_CHUNK_TURNS },
      { from: 300, to: 600, maxPoints: 50 },
      { from: 690, to: 900 },
      { from: 5_000, to: 6_000 },
      { maxPoints: 100 },
      { from: 400 },
      { to: 40 },
    ];
    for (const { from, to, maxPoints } of windows) {
      const timeline = await getRunTimeline(db, projectId, "chunked", { from, to, maxPoints });
      expect(timeline).toEqual(buildTimeline(decisions, events, { fromTurn: from, toTurn: to, maxPoints }));
    }
  }, 120_000);

  it("resumes a live run by writing only the chunks from the one holding its first changed turn on", async () => {
    const runId = "live-chunks";
    const all = etfRun(runId, 11, 900);
    const upTo = (turn: number) => all.filter((e) => e.type === "run.started" || (e.type !== "run.ended" && e.turn <= turn));
    expect(await ingestAndRebuild(runId, upTo(600))).toMatchObject({ mode: "full" });
    const runPk = await runPkOf(runId);

    for (const turn of [640, 780, 900]) {
      const before = await chunkRows(runId);
      const { checkpoint } = await db.prisma.runDecisionsCache.findUniqueOrThrow({ where: { projectId_runPk: { projectId, runPk } } });
      const kept = (checkpoint as { kept: { turns: number } }).kept.turns;
      const events = turn === 900 ? all : upTo(turn);
      await ingestBatch(
        db,
        projectId,
        events.filter((e) => !upTo(turn === 640 ? 600 : turn === 780 ? 640 : 780).includes(e)),
      );
      expect(await rebuildRun(db, threads, projectId, runPk)).toMatchObject({ ok: true, mode: "resumed" });
      const after = await chunkRows(runId);
      const first = chunkOfIndex(kept);
      expect(first).toBeGreaterThan(0);
      // The chunks before the one holding the first changed turn are the same rows, not written again.
      expect(after.slice(0, first)).toEqual(before.slice(0, first));
      for (const chunk of after.slice(first)) expect(before.find((b) => b.chunk === chunk.chunk)?.xmin).not.toBe(chunk.xmin);
      expect((await getDecisionsJson(db, projectId, runId)).json).toBe(JSON.stringify(rebuild(events)));
    }
  }, 120_000);

  it("reads stored turns through the decisions contract: a chunk that breaks it is refused, not served", async () => {
    const events = etfRun("tampered", 5, 5);
    expect(await ingestAndRebuild("tampered", events)).toMatchObject({ ok: true, mode: "full" });
    const turn = rebuild(events).turns[0].turn;
    expect((await getTurnDetail(db, projectId, "tampered", turn)).decision?.turn).toBe(turn);
    const runPk = await runPkOf("tampered");
    const [row] = await db.prisma.runDecisionChunk.findMany({ where: { projectId, runPk, chunk: 0 } });
    // Every turn without its reminders (a field ZTurnDecision requires), as an older or broken writer might leave it.
    const broken = (JSON.parse(row.turns) as Record<string, unknown>[]).map(({ reminders: _, ...rest }) => rest);
    await db.prisma.runDecisionChunk.update({
      where: { projectId_runPk_chunk: { projectId, runPk, chunk: 0 } },
      data: { turns: JSON.stringify(broken) },
    });
    await expect(getTurnDetail(db, projectId, "tampered", turn)).rejects.toThrow(/reminders/);
    await expect(getDecisions(db, projectId, "tampered")).rejects.toThrow(/reminders/);
  }, 60_000);

  it("deletes the chunks past the decisions' end, and every chunk of a rebuild that failed", async () => {
    const runPk = await runPkOf("short");
    await db.prisma.runDecisionChunk.create({
      data: { projectId, runPk, chunk: 9, firstTurn: 9_000, lastTurn: 9_001, turnCount: 2, turns: "[]" },
    });
    await db.prisma.runDecisionsCache.update({
      where: { projectId_runPk: { projectId, runPk } },
      data: { checkpoint: undefined, eventCount: 0 },
    });
    expect(await rebuildRun(db, threads, projectId, runPk)).toMatchObject({ ok: true, mode: "full" });
    expect((await chunkRows("short")).map((c) => c.chunk)).toEqual([0]);
    expect((await getDecisionsJson(db, projectId, "short")).json).toBe(JSON.stringify(rebuild(etfRun("short", 2, 5))));

    // Its run.started gone (as if never stored): the run cannot be rebuilt, and keeps no chunks.
    // (the stored rebuild's count set below, so that the guard lets a rebuild of fewer events in).
    await db.prisma.event.deleteMany({ where: { projectId, runPk, type: "run.started" } });
    await db.prisma.runDecisionsCache.update({ where: { projectId_runPk: { projectId, runPk } }, data: { eventCount: 0 } });
    expect(await rebuildRun(db, threads, projectId, runPk)).toMatchObject({ ok: false });
    expect(await chunkRows("short")).toEqual([]);
  }, 60_000);
});
