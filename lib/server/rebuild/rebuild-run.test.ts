import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { reviewerAudit } from "@/lib/derived/reviewer/audit";
import { rollupDrift } from "@/lib/server/testing/trend-rollups";
import { copyVersionOf, policyVersionOf, trendBuckets } from "@/lib/trends/buckets";
import { runEffectCounts } from "@/lib/trends/effect-keys";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { listReviewerCandidates } from "@/lib/server/reviewer/list-candidates";
import { getRunTimeline } from "@/lib/server/runs/run-timeline";
import { unreviewedRow } from "@/lib/server/testing/reviews";
import { testDatabases } from "@/lib/server/testing/databases";
import { rebuildRun } from "./rebuild-run";
import { staleRuns } from "./stale-runs";
import { summaryOf } from "./rebuild-task";
import { decisionsJsonOf } from "@/lib/server/runs/decision-chunks";
import { readWholeDecisions } from "@/lib/server/runs/stored-decisions";
import { keepResumeState } from "./resume-state";
import { getRunTriage } from "@/lib/server/runs/run-triage";
import { decisionDigests } from "@/lib/derived/compare/decision-digests";
import { triageCounts, triageMarks } from "@/lib/derived/triage";
import { taskThreads } from "@/lib/server/background/tasks";

/** A small deterministic generator, so a failing split can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}

/** Each turn's earliest event's time, in ms. */
function turnTimesOf(events: readonly TEvent[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const e of events) {
    if (!("turn" in e) || typeof e.turn !== "number") continue;
    const ms = Date.parse(e.ts);
    times.set(e.turn, Math.min(times.get(e.turn) ?? ms, ms));
  }
  return times;
}

describe.each(testDatabases())("rebuild jobs on $name", (kind) => {
  let db: Database;
  let projectId: string;
  const threads = taskThreads(0);

  beforeAll(async () => {
    db = await kind.open();
    projectId = (await authenticate(db, `Bearer ${(await createKey(db, "rebuilds")).secret}`)).projectId;
  }, 60_000);
  afterAll(async () => db?.close());

  /** What the stored rebuild says, next to what a full rebuild of the same events says. */
  async function storedAndFull(runId: string, events: readonly TEvent[]) {
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    const stored = await db.prisma.runDecisionsCache.findUniqueOrThrow({
      where: { projectId_runPk: { projectId, runPk: run.id } },
    });
    const decisions = rebuild(events);
    const timelineTypes = new Set<string>(TIMELINE_EVENT_TYPES);
    // The stored high-water mark is the run's highest seq as a number (not as text: "999" > "2900").
    const [{ maxSeq }] = await db.prisma.$queryRawUnsafe<{ maxSeq: bigint }[]>(
      `SELECT max(seq) AS "maxSeq" FROM events WHERE project_id = $1 AND run_pk = $2`,
      projectId,
      run.id,
    );
    expect(stored.maxSeq).toBe(maxSeq);
    // The stored chunks' texts joined are, to the byte, the JSON text of the whole decisions.
    const whole = (await readWholeDecisions(db, run))!;
    const json = decisionsJsonOf(runId, whole.chunkTexts, whole.head.findings!);
    expect(json).toBe(JSON.stringify(decisions));
    const { rows, nextCursor } = await listReviewerCandidates(db, projectId, { runId, limit: 500 });
    expect(nextCursor).toBeNull();
    // The project's trend rollups are the sums of its runs' stored buckets, after a resume as after a full rebuild.
    expect(await rollupDrift(db)).toEqual([]);
    return {
      stored: {
        decisions: JSON.parse(json),
        summary: stored.summary,
        eventCount: stored.eventCount,
        rows,
        timeline: await getRunTimeline(db, projectId, runId, {}),
        triage: {
          marks: await db.prisma.runTriageMark.findMany({
            where: { projectId, runPk: run.id },
            select: { kind: true, turn: true },
            orderBy: [{ kind: "asc" }, { turn: "asc" }],
          }),
          counts: stored.triageCounts,
        },
        digests: await db.prisma.runDecisionDigest.findMany({
          where: { projectId, runPk: run.id },
          select: { bucket: true, digest: true },
          orderBy: { bucket: "asc" },
        }),
        trends: (await db.prisma.trendBucket.findMany({ where: { projectId, runPk: run.id }, orderBy: { bucket: "asc" } })).map((b) => ({
          bucketMs: b.bucket.getTime(),
          counts: b.counts,
          agent: b.agent,
          model: b.model,
          copy: b.copyVersion,
          policy: b.policyVersion,
        })),
      },
      full: {
        decisions,
        summary: {
          ...JSON.parse(JSON.stringify(summaryOf(decisions, events))),
          effectCounts: runEffectCounts(trendBuckets(decisions, events, turnTimesOf(events))),
        },
        eventCount: events.length,
        timeline: buildTimeline(
          decisions,
          events.filter((e) => timelineTypes.has(e.type)),
        ),
        rows: reviewerAudit(events, decisions).rows.map((row) => unreviewedRow(run, row)),
        triage: {
          marks: triageMarks(decisions.turns, decisions.findings).sort((a, b) => a.kind.localeCompare(b.kind) || a.turn - b.turn),
          counts: triageCounts(triageMarks(decisions.turns, decisions.findings)),
        },
        digests: decisionDigests(decisions.turns),
        // The trend buckets of every event, each turn at its earliest event's time.
        trends: trendBuckets(decisions, events, turnTimesOf(events)).map((b) => ({
          ...b,
          agent: run.agent,
          model: run.model,
          copy: copyVersionOf(summaryOf(decisions, events).copy),
          policy: policyVersionOf(summaryOf(decisions, events).policy),
        })),
      },
      run,
    };
  }

  it.each([
    { seed: 1, turns: 120 },
    { seed: 2, turns: 300 },
  ])(
    "resumes a live run batch by batch to exactly what a full rebuild gives (seed $seed)",
    async ({ seed, turns }) => {
      const runId = `inc-${seed}`;
      const all = generateEtfRun({ runId, seed, turns, anomalies: true }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
      const next = random(seed);
      const arrived: TEvent[] = [];
      const modes: string[] = [];
      let at = 0;
      while (at < all.length) {
        const size = 1 + Math.floor(next() * 60);
        const batch = all.slice(at, at + size).sort(() => next() - 0.5); // any order within a batch
        at += size;
        await ingestBatch(db, projectId, batch);
        arrived.push(...batch.map((e) => ZEvent.parse(e)));
        const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
        // Now and then as a process that did not make the stored rebuild (another worker, a restart):
        // the resume reads the whole run, in pages, instead of what arrived since.
        if (next() < 0.3) keepResumeState(db, run, null);
        modes.push((await rebuildRun(db, threads, projectId, run.id)).mode!);
        if (modes.length % 5 === 0 || at >= all.length) {
          const { stored, full } = await storedAndFull(runId, arrived);
          expect(stored).toEqual(full);
        }
      }
      expect(modes[0]).toBe("full");
      expect(modes.filter((m) => m === "resumed").length).toBeGreaterThan(modes.length / 2);
      // The generated anomalies give each triage kind something to step through.
      const { stored } = await storedAndFull(runId, arrived);
      const counts = stored.triage.counts as { finding: number; delivery: number };
      expect(counts.finding).toBeGreaterThan(0);
      expect(counts.delivery).toBeGreaterThan(0);
      expect(stored.trends.length).toBeGreaterThan(0);
      expect(stored.trends.some((b) => Object.keys(b.counts as object).some((k) => k.startsWith("followUp.")))).toBe(true);
    },
    120_000,
  );

  it("resumes over the state it kept: reads only what arrived since, writes only the Reviewer rows and trend buckets that changed", async () => {
    const runId = "inc-bounded";
    const all = generateEtfRun({ runId, seed: 21, turns: 520, anomalies: true }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    const first = all.filter((e) => e.type === "run.started" || Number(e.turn ?? 0) < 500);
    const batch = all.filter((e) => !first.includes(e) && e.type !== "run.ended" && Number(e.turn) < 510);
    await ingestBatch(db, projectId, first);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    const versions = async (table: string, key: string) =>
      new Map(
        (
          await db.prisma.$queryRawUnsafe<{ key: string; xmin: string }[]>(
            `SELECT ${key}::text AS "key", xmin::text AS "xmin" FROM ${table} WHERE project_id = $1 AND run_pk = $2`,
            projectId,
            run.id,
          )
        ).map((r) => [r.key, r.xmin]),
      );
    const rowsBefore = await versions("reviewer_rows", "ordinal");
    const bucketsBefore = await versions("trend_buckets", "bucket");
    expect(rowsBefore.size).toBeGreaterThan(20);
    expect(bucketsBefore.size).toBeGreaterThan(2);

    await ingestBatch(db, projectId, batch);
    const read = { rows: 0, statements: [] as string[] };
    const query = db.prisma.$queryRawUnsafe.bind(db.prisma);
    const spy = vi.spyOn(db.prisma, "$queryRawUnsafe").mockImplementation((async (sql: string, ...values: unknown[]) => {
      const rows = await query<unknown[]>(sql, ...values);
      read.rows += rows.length;
      read.statements.push(sql);
      return rows;
    }) as typeof db.prisma.$queryRawUnsafe);
    try {
      expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("resumed");
    } finally {
      spy.mockRestore();
    }
    // The new turns' events, the new Reviewer lane events among them, the new turns' times: each at
    // most the batch (the whole run's Reviewer lane alone is over a thousand rows); no stored chunk.
    expect(read.rows).toBeLessThanOrEqual(3 * batch.length + 10);
    expect(read.statements.some((sql) => sql.includes("run_decision_chunks"))).toBe(false);
    // Rows and buckets of the turns before the batch are left as they were (same row versions).
    const rowsAfter = await versions("reviewer_rows", "ordinal");
    const bucketsAfter = await versions("trend_buckets", "bucket");
    const same = (before: Map<string, string>, after: Map<string, string>) => [...before].filter(([k, x]) => after.get(k) === x).length;
    expect(same(rowsBefore, rowsAfter)).toBeGreaterThan(rowsBefore.size * 0.9);
    expect(same(bucketsBefore, bucketsAfter)).toBeGreaterThanOrEqual(bucketsBefore.size - 2);
    const { stored, full } = await storedAndFull(
      runId,
      [...first, ...batch].map((e) => ZEvent.parse(e)),
    );
    expect(stored).toEqual(full);
  }, 120_000);

  it("rebuilds in full when an event arrives late, before the checkpoint's turn or below the last rebuild's max seq", async () => {
    const runId = "inc-late";
    const all = generateEtfRun({ runId, seed: 9, turns: 60, anomalies: true }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    const late = all.find((e) => e.type === "meter.time" && e.turn === 10)!;
    const early = all.filter((e) => e !== late && (e.type === "run.started" || Number(e.turn ?? 0) < 40));
    await ingestBatch(db, projectId, early);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");

    // A reading of turn 10 arrives after the checkpoint moved past it.
    await ingestBatch(db, projectId, [late]);
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    expect(
      (
        await storedAndFull(
          runId,
          [...early, late].map((e) => ZEvent.parse(e)),
        )
      ).stored.decisions,
    ).toEqual(rebuild([...early, late].map((e) => ZEvent.parse(e))));
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("current");

    // A batch that committed after the last rebuild read, with a seq below the one it read up to
    // (concurrent ingest transactions): the counts no longer add up, so nothing is skipped.
    const rest = all.filter((e) => e !== late && !early.includes(e));
    await ingestBatch(db, projectId, rest.slice(1));
    const [{ seq }] = await db.prisma.$queryRawUnsafe<{ seq: string }[]>(`SELECT min(seq)::text AS seq FROM events`);
    await ingestBatch(db, projectId, [rest[0]]);
    await db.prisma.$executeRawUnsafe(
      `UPDATE events SET seq = $1::bigint - 1 WHERE project_id = $2 AND event_id = $3`,
      seq,
      projectId,
      rest[0].id,
    );
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    const { stored, full } = await storedAndFull(
      runId,
      all.map((e) => ZEvent.parse(e)),
    );
    expect(stored).toEqual(full);
  }, 120_000);

  it("stores a rebuild that failed on its own (its thread ran out of memory) as the run's error, so it is not swept again", async () => {
    const runId = "too-big";
    const events = generateEtfRun({ runId, seed: 12, turns: 3_000 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    for (let at = 0; at < events.length; at += 2_000) await ingestBatch(db, projectId, events.slice(at, at + 2_000));
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    const tiny = taskThreads(1, 24);
    try {
      expect(await rebuildRun(db, tiny, projectId, run.id)).toMatchObject({ ok: false, mode: "full" });
    } finally {
      await tiny.close();
    }
    const stored = await db.prisma.runDecisionsCache.findUniqueOrThrow({ where: { projectId_runPk: { projectId, runPk: run.id } } });
    expect(stored).toMatchObject({ findings: null, eventCount: events.length });
    expect(await db.prisma.runDecisionChunk.count({ where: { projectId, runPk: run.id } })).toBe(0);
    expect(stored.error).toMatch(/^the rebuild failed: the rebuild needed more than the job thread's 24 MB/);
    expect([...(await staleRuns(db, { projectId })).values()].flat()).not.toContain(run.id);
    // With room enough, the next rebuild succeeds and replaces the error.
    expect(await rebuildRun(db, threads, projectId, run.id)).toMatchObject({ ok: true });
  }, 120_000);

  it("sweeps and rebuilds in full a run whose trend buckets are missing or of another version", async () => {
    const runId = "trend-version";
    const events = generateEtfRun({ runId, seed: 5, turns: 30 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    await ingestBatch(db, projectId, events);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    expect([...(await staleRuns(db, { projectId })).values()].flat()).not.toContain(run.id);
    // As a run rebuilt before trends existed: no buckets, no trend version.
    await db.prisma.trendBucket.deleteMany({ where: { projectId, runPk: run.id } });
    await db.prisma.runDecisionsCache.update({ where: { projectId_runPk: { projectId, runPk: run.id } }, data: { trendVersion: null } });
    expect([...(await staleRuns(db, { projectId })).values()].flat()).toContain(run.id);
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    const { stored, full } = await storedAndFull(
      runId,
      events.map((e) => ZEvent.parse(e)),
    );
    expect(stored.trends.length).toBeGreaterThan(0);
    expect(stored).toEqual(full);
    expect([...(await staleRuns(db, { projectId })).values()].flat()).not.toContain(run.id);
  });

  it("records the highest seq as a number when a run's seqs cross a power of ten", async () => {
    const [{ next }] = await db.prisma.$queryRawUnsafe<{ next: bigint }[]>(`SELECT max(seq) + 1 AS "next" FROM events`);
    const ceiling = 10n ** BigInt(String(next).length); // the next power of ten above every seq so far
    await db.prisma.$queryRawUnsafe(`SELECT setval(pg_get_serial_sequence('events', 'seq'), $1::bigint)`, String(ceiling - 5n));
    const runId = "seq-digits";
    const events = generateEtfRun({ runId, seed: 3, turns: 4 }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    await ingestBatch(db, projectId, events);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    const stored = await db.prisma.runDecisionsCache.findUniqueOrThrow({ where: { projectId_runPk: { projectId, runPk: run.id } } });
    expect(stored.maxSeq).toBe(ceiling - 5n + BigInt(events.length));
  });

  it("rebuilds a run stored before triage marks in full, found by the sweep, and serves its marks", async () => {
    const runId = "old-derived";
    const events = generateEtfRun({ runId, seed: 5, turns: 80, anomalies: true }).events.map((e) => ({ ...e, id: `${runId}:${e.id}` }));
    await ingestBatch(db, projectId, events);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    const marks = await db.prisma.runTriageMark.findMany({ where: { projectId, runPk: run.id }, orderBy: { turn: "asc" } });
    expect(marks.length).toBeGreaterThan(0);
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("current");

    // As a row written before the migration: version 0, no counts, no marks.
    await db.prisma.runTriageMark.deleteMany({ where: { projectId, runPk: run.id } });
    await db.prisma.$executeRawUnsafe(
      `UPDATE run_decisions SET derived_version = 0, triage_counts = NULL WHERE project_id = $1 AND run_pk = $2`,
      projectId,
      run.id,
    );
    expect((await getRunTriage(db, projectId, runId, undefined)).ready).toBe(false);
    expect([...(await staleRuns(db, { projectId })).values()].flat()).toContain(run.id);
    expect((await rebuildRun(db, threads, projectId, run.id)).mode).toBe("full");
    expect([...(await staleRuns(db, { projectId })).values()].flat()).not.toContain(run.id);
    expect(await db.prisma.runTriageMark.findMany({ where: { projectId, runPk: run.id }, orderBy: { turn: "asc" } })).toEqual(marks);

    // Stepping: from before the run, next is the first mark and previous the last; from a mark, its neighbours.
    const found = marks.filter((m) => m.kind === "finding").map((m) => m.turn);
    expect(found.length).toBeGreaterThan(2);
    const fromStart = await getRunTriage(db, projectId, runId, undefined);
    expect(fromStart).toMatchObject({
      ready: true,
      turn: null,
      steps: { finding: { count: found.length, next: found[0], previous: found.at(-1) } },
    });
    const fromSecond = await getRunTriage(db, projectId, runId, found[1]);
    expect(fromSecond.steps.finding).toEqual({ count: found.length, previous: found[0], next: found[2] });
    // The other kinds are answered alongside, each from its own marks.
    expect(fromSecond.steps.delivery.count).toBe(marks.filter((m) => m.kind === "delivery").length);
    const fromLast = await getRunTriage(db, projectId, runId, found.at(-1));
    expect(fromLast.steps.finding.next).toBeNull();
  }, 60_000);
});
