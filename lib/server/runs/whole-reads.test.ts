import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEvent, type TEvent } from "@/lib/contracts";
import { rebuild } from "@/lib/core";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { generateEtfRun } from "@/lib/demo/etf-run";
import { authenticate, createKey } from "@/lib/server/auth/keys";
import { useDatabase, type Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { streamedDocument } from "@/lib/server/export/streamed-download";
import { runDecisionsRoute } from "@/lib/server/http/routes";
import { ingestBatch } from "@/lib/server/ingest/ingest-batch";
import { rebuildRun } from "@/lib/server/rebuild/rebuild-run";
import { testDatabases } from "@/lib/server/testing/databases";
import { DECISION_CHUNK_TURNS } from "./decision-chunks";
import { openDecisionsDocument } from "./run-reads";
import { DecisionsChangedError, openWholeDecisions, readWholeDecisions, readWindowChunks } from "./stored-decisions";
import { getRunTimeline } from "./run-timeline";
import { wholeReads, WholeReads } from "./whole-reads";
import { taskThreads } from "@/lib/server/background/tasks";

/** A generated run's events (ids made unique per run), as ingested and as the core reads them. */
function etfRun(runId: string, seed: number, turns: number): TEvent[] {
  return generateEtfRun({ runId, seed, turns, anomalies: true }).events.map(
    (e) => ZEvent.parse({ ...e, id: `${runId}:${e.id}` }) as TEvent,
  );
}

/** The events of turns up to `turn` (and run.started): what an agent has sent by then. */
function upTo(events: readonly TEvent[], turn: number): TEvent[] {
  return events.filter((e) => e.type === "run.started" || (e.type !== "run.ended" && e.turn <= turn));
}

/** A Database whose raw statements are recorded (the SQL text of each, through Prisma or not). */
function recording(db: Database): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const prisma = new Proxy(db.prisma, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (name === "$queryRawUnsafe" || name === "$queryRaw") {
        return (sql: unknown, ...args: unknown[]) => {
          statements.push(typeof sql === "string" ? sql : String((sql as { strings?: string[] }).strings?.join("?") ?? sql));
          return (value as (...a: unknown[]) => unknown).call(target, sql, ...args);
        };
      }
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    db: {
      ...db,
      prisma,
      executeSql: (text, values) => (statements.push(text), db.executeSql(text, values)),
      copyRows: (select) => (statements.push(select), db.copyRows(select)),
    },
    statements,
  };
}

const BASE = "http://cuescope.test/api/v1";
const get = (key: string, runId: string) =>
  runDecisionsRoute(new Request(`${BASE}/runs/${runId}/decisions`, { headers: { authorization: `Bearer ${key}` } }), {
    params: Promise.resolve({ runId }),
  });

/** A response body read to its end, piece by piece as the stream gives them. */
async function readPieces(response: Response): Promise<{ text: string; pieces: number }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let pieces = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    text += decoder.decode(read.value, { stream: true });
    pieces++;
  }
  return { text: text + decoder.decode(), pieces };
}

describe.each(testDatabases())("whole-run reads of the stored decisions on $name", (kind) => {
  let db: Database;
  let keyA: string;
  let keyB: string;
  let projectA: string;
  let projectB: string;
  const threads = taskThreads(0);
  // Six chunks: 1,300 turns; the last chunk holds 20.
  const TURNS = 5 * DECISION_CHUNK_TURNS + 20;
  const long = etfRun("whole", 5, TURNS + 60);
  const stored = upTo(long, TURNS - 1);

  beforeAll(async () => {
    db = await kind.open();
    useDatabase(db);
    keyA = (await createKey(db, "whole-a")).secret;
    keyB = (await createKey(db, "whole-b")).secret;
    projectA = (await authenticate(db, `Bearer ${keyA}`)).projectId;
    projectB = (await authenticate(db, `Bearer ${keyB}`)).projectId;
    await ingestAndRebuild(projectA, "whole", stored);
    await ingestAndRebuild(projectB, "small", etfRun("small", 2, 40));
  }, 180_000);
  afterAll(async () => db?.close());

  async function runOf(projectId: string, runId: string) {
    return db.prisma.run.findUniqueOrThrow({ where: { projectId_runId: { projectId, runId } } });
  }

  async function ingestAndRebuild(projectId: string, runId: string, events: readonly TEvent[]) {
    for (let at = 0; at < events.length; at += 2_000)
      expect((await ingestBatch(db, projectId, events.slice(at, at + 2_000))).summary.error).toBe(0);
    return rebuildRun(db, threads, projectId, (await runOf(projectId, runId)).id);
  }

  it("reads every chunk as a row of its own, page by page, never as an aggregated array, equal to a full rebuild", async () => {
    const expected = JSON.stringify(rebuild(stored));
    const run = await runOf(projectA, "whole");
    const { db: seen, statements } = recording(db);
    for (const pageChunks of [1, 2, 4, 16]) {
      const whole = (await readWholeDecisions(seen, run, pageChunks))!;
      expect(whole.chunkTexts).toHaveLength(6);
      const turns = whole.chunkTexts.flatMap((text) => JSON.parse(text) as unknown[]);
      expect(JSON.stringify({ runId: "whole", turns, findings: JSON.parse(whole.head.findings!) })).toBe(expected);
    }
    // The download's document, collected (pages of 1 chunk and of the default).
    for (const pageChunks of [1, undefined]) {
      const document = await openDecisionsDocument(seen, projectA, "whole", { pageChunks });
      let json = "";
      for (let piece; (piece = await document.next()) !== null;) json += new TextDecoder().decode(piece);
      document.close();
      expect(json).toBe(expected);
    }
    await readWindowChunks(seen, run, 300, 800);
    expect(statements.length).toBeGreaterThan(10);
    for (const sql of statements) expect(sql).not.toMatch(/array_agg/i);
  }, 60_000);

  it("streams GET …/decisions a chunk at a time, the same bytes as the whole decisions' JSON, and frees its permit", async () => {
    const response = await get(keyA, "whole");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("x-cuescope-stale-events")).toBe("0");
    expect(wholeReads().active(projectA)).toBe(1);
    const { text, pieces } = await readPieces(response);
    expect(text).toBe(JSON.stringify(rebuild(stored)));
    expect(pieces).toBeGreaterThanOrEqual(6);
    expect(wholeReads().active(projectA)).toBe(0);

    // A client that goes away frees it too, and so does a HEAD request (Next answers it with this
    // handler and drops the body unread) and an answer whose body nobody reads or cancels.
    const left = await get(keyA, "whole");
    await left.body!.getReader().cancel();
    expect(wholeReads().active(projectA)).toBe(0);
    const head = await runDecisionsRoute(
      new Request(`${BASE}/runs/whole/decisions`, { method: "HEAD", headers: { authorization: `Bearer ${keyA}` } }),
      { params: Promise.resolve({ runId: "whole" }) },
    );
    expect([head.status, head.body, head.headers.get("x-cuescope-stale-events")]).toEqual([200, null, "0"]);
    expect(wholeReads().active(projectA)).toBe(0);
    const reads = new WholeReads();
    const dropped = streamedDocument(await openDecisionsDocument(db, projectA, "whole", { reads }), { label: "test", idleMs: 50 });
    expect(dropped.status).toBe(200);
    expect(reads.active(projectA)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads.active(projectA)).toBe(0);

    // Windows of the zoomed timeline, from chunks read as rows, as before.
    const types = new Set<string>(TIMELINE_EVENT_TYPES);
    expect(await getRunTimeline(db, projectA, "whole", { from: 500, to: 1000 })).toEqual(
      buildTimeline(
        rebuild(stored),
        stored.filter((e) => types.has(e.type)),
        { fromTurn: 500, toTurn: 1000, runTurnRange: [0, TURNS - 1] },
      ),
    );
  }, 60_000);

  it("reads a download's pages one ahead of what its client took, never more, and sends each chunk as one piece of its stored bytes", async () => {
    const run = await runOf(projectA, "whole");
    const texts = (await readWholeDecisions(db, run))!.chunkTexts;
    const largest = Math.max(...texts.map((text) => Buffer.byteLength(text)));
    const { db: seen, statements } = recording(db);
    const pages = () => statements.filter((sql) => sql.includes("string_agg")).length;
    const document = await openDecisionsDocument(seen, projectA, "whole", { pageChunks: 1, reads: new WholeReads() });
    try {
      expect(pages()).toBe(1); // the first page, read before anything is sent
      const pieces: Uint8Array[] = [];
      for (let piece; (piece = await document.next()) !== null;) {
        pieces.push(piece);
        // Pieces taken: the head, then one per chunk (pages of one chunk), then the end.
        const chunksTaken = Math.min(Math.max(pieces.length - 1, 0), texts.length);
        // The page after the last one taken is being read while it is sent; pages of one chunk
        // end with an empty page (the one that says there is no more), then nothing is read.
        expect(pages()).toBe(Math.min(chunksTaken + 1, texts.length + 1));
      }
      expect(pieces).toHaveLength(texts.length + 2);
      for (const [i, text] of texts.entries()) {
        const piece = Buffer.from(pieces[i + 1]);
        expect(piece.length).toBeLessThanOrEqual(largest);
        // The chunk's stored text without its brackets, after a comma from the second on.
        expect(piece.toString()).toBe(`${i === 0 ? "" : ","}${text.slice(1, -1)}`);
      }
    } finally {
      document.close();
    }
  });

  it("with reuseMemory, copies each page into memory used again once its pieces were asked past, and sends the same bytes", async () => {
    const expected = JSON.stringify(rebuild(stored));
    const buffers = new Set<ArrayBufferLike>();
    for (let download = 0; download < 2; download++) {
      const document = await openDecisionsDocument(db, projectA, "whole", { pageChunks: 1, reuseMemory: true, reads: new WholeReads() });
      const sent: Buffer[] = [];
      const chunkPieces: Uint8Array[] = [];
      try {
        // As the direct writer does: each piece is written out (here: copied) before the next is asked for.
        for (let piece; (piece = await document.next()) !== null;) {
          sent.push(Buffer.from(piece));
          chunkPieces.push(piece);
        }
      } finally {
        document.close();
      }
      expect(Buffer.concat(sent).toString()).toBe(expected);
      // The head and the findings at the end are not chunks.
      expect(chunkPieces.slice(1, -1)).toHaveLength(6);
      for (const piece of chunkPieces.slice(1, -1)) buffers.add(piece.buffer);
    }
    // Six chunks a download, two downloads: on PostgreSQL the pages after each download's first share
    // slabs of the pool; PGlite's pieces are views of each page's own COPY bytes (nothing copied, nothing reused).
    if (kind.name === "postgres") expect(buffers.size).toBeLessThanOrEqual(4);
    else expect(buffers.size).toBe(12);
  });

  it("keeps reading when a rebuild rewrote only chunks not read yet, and refuses to mix rebuilds otherwise", async () => {
    const run = await runOf(projectA, "whole");
    // A live run's resume rewrites its last chunks only: a read that has taken the first goes on
    // and ends with the new rebuild's chunks and findings.
    const resumedRead = (await openWholeDecisions(db, run, 1))!;
    const firstPage = (await resumedRead.next())!;
    const grown = upTo(long, TURNS + 40);
    await ingestBatch(
      db,
      projectA,
      grown.filter((e) => e.type !== "run.started" && e.type !== "run.ended" && e.turn >= TURNS),
    );
    expect(await rebuildRun(db, threads, projectA, run.id)).toMatchObject({ ok: true, mode: "resumed" });
    const texts = [...firstPage];
    for (let page; (page = await resumedRead.next());) texts.push(...page);
    const decisions = rebuild(grown);
    expect(texts.flatMap((text) => JSON.parse(text) as unknown[])).toEqual(JSON.parse(JSON.stringify(decisions.turns)));
    expect(resumedRead.last().findings).toBe(JSON.stringify(decisions.findings));
    expect(resumedRead.last().eventCount).toBe(grown.length);

    // A full rebuild rewrites every chunk: a read that took some cannot go on, and a download
    // under way ends with an error mark no parser takes for the decisions.
    const fullRead = (await openWholeDecisions(db, run, 1))!;
    await fullRead.next();
    const document = await openDecisionsDocument(db, projectA, "whole", { pageChunks: 1, reads: new WholeReads() });
    const response = streamedDocument(document, { label: "decisions download" });
    const reader = response.body!.getReader();
    const started = new TextDecoder().decode((await reader.read()).value);
    expect(started.startsWith(`{"runId":"whole","turns":[`)).toBe(true);
    await db.prisma.runDecisionsCache.update({
      where: { projectId_runPk: { projectId: projectA, runPk: run.id } },
      data: { eventCount: 0 },
    });
    expect(await rebuildRun(db, threads, projectA, run.id)).toMatchObject({ ok: true, mode: "full" });
    await expect(fullRead.next()).rejects.toBeInstanceOf(DecisionsChangedError);
    let rest = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += new TextDecoder().decode(read.value);
    expect(() => JSON.parse(started + rest)).toThrow();
    expect(rest).toMatch(/,\{"error":\{"code":"conflict","message":"the decisions download stopped: the run was rebuilt while/);

    // A job's read (readWholeDecisions) reads again instead, and gets the new rebuild whole.
    expect((await readWholeDecisions(db, run, 1))!.head.eventCount).toBe(grown.length);
  }, 120_000);

  it("holds a project's whole-run reads to CUESCOPE_WHOLE_READS at once: a further one waits briefly, then 503 with Retry-After", async () => {
    const before = { reads: process.env.CUESCOPE_WHOLE_READS, wait: process.env.CUESCOPE_WHOLE_READ_WAIT_MS };
    process.env.CUESCOPE_WHOLE_READS = "2";
    process.env.CUESCOPE_WHOLE_READ_WAIT_MS = "300";
    try {
      const held = [await wholeReads().acquire(projectA), await wholeReads().acquire(projectA)];
      const refused = await get(keyA, "whole");
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toEqual({ error: { code: "unavailable", message: expect.stringMatching(/2 reads of a whole run/) } });
      // Another project's reads are not held up.
      const other = await get(keyB, "small");
      expect(other.status).toBe(200);
      expect(JSON.parse((await readPieces(other)).text)).toMatchObject({ runId: "small" });
      // One that waits while a permit is freed gets it.
      const waiting = get(keyA, "whole");
      setTimeout(held[0], 100);
      const served = await waiting;
      expect(served.status).toBe(200);
      await readPieces(served);
      held[1]();
      expect(wholeReads().active(projectA)).toBe(0);
    } finally {
      for (const [name, value] of [
        ["CUESCOPE_WHOLE_READS", before.reads],
        ["CUESCOPE_WHOLE_READ_WAIT_MS", before.wait],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 60_000);

  it("answers a run that is not rebuilt as 409 and an unknown run as 404, before any byte, holding no permit", async () => {
    const missing = await get(keyA, "no-such-run");
    expect(missing.status).toBe(404);
    expect(wholeReads().active(projectA)).toBe(0);
    await expect(openDecisionsDocument(db, projectB, "whole")).rejects.toBeInstanceOf(DomainError);
  });
});

describe("WholeReads", () => {
  it("hands permits on in order, counts a release once, and keeps projects apart", async () => {
    const reads = new WholeReads(
      () => 1,
      () => 1_000,
    );
    const first = await reads.acquire("p");
    const order: string[] = [];
    const second = reads.acquire("p").then((release) => (order.push("second"), release));
    const third = reads.acquire("p").then((release) => (order.push("third"), release));
    const other = await reads.acquire("q");
    expect(reads.active("q")).toBe(1);
    first();
    first();
    (await second)();
    (await third)();
    other();
    expect(order).toEqual(["second", "third"]);
    expect(reads.active("p")).toBe(0);
    expect(reads.active("q")).toBe(0);
  });

  it("refuses after waiting, as unavailable with the seconds to wait", async () => {
    const reads = new WholeReads(
      () => 1,
      () => 50,
    );
    const held = await reads.acquire("p");
    const refused = await reads.acquire("p").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: "unavailable", retryAfterSeconds: 1 });
    held();
    expect(reads.active("p")).toBe(0);
    (await reads.acquire("p"))();
  });
});
