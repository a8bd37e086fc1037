import "server-only";
import { z } from "zod";
import {
  ZFinding,
  ZRunDecisions,
  ZTurnDecision,
  type TEventsQuery,
  type TEventsResponse,
  type TFinding,
  type TRunDecisions,
  type TRunSummary,
  type TTurnDetail,
} from "@/lib/contracts";
import { inRunOrder } from "@/lib/core";
import type { Database } from "@/lib/server/db";
import { eventColumns } from "@/lib/server/db/json-columns";
import { env } from "@/lib/server/env";
import { DomainError } from "@/lib/server/errors";
import { findRun, type RunRow } from "./find-run";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { wantRebuild } from "@/lib/server/jobs/wanted";
import type { DocumentPieces } from "@/lib/server/export/streamed-download";
import { checkedHead, getRunSummaries } from "./run-decisions";
import { SlabPool, type SlabLease } from "@/lib/server/db/slab-pool";
import { DecisionsChangedError, openWholeDecisionBytes, readTurnChunk, type WholeDecisionsCursor } from "./stored-decisions";
import { wholeReads, type WholeReads } from "./whole-reads";
import { toRunSummary } from "./run-dto";

/** `GET /api/v1/runs/:runId`: the run's header and counts. */
export async function getRunSummary(db: Database, projectId: string, runId: string): Promise<TRunSummary> {
  const run = await findRun(db, projectId, runId);
  // The stored summary only: a live run's page polls this, and its decisions may be tens of MB.
  return toRunSummary(run, (await getRunSummaries(db, projectId, [run])).get(run.id)!);
}

/**
 * `GET /api/v1/runs/:runId/decisions`: the core's RunDecisions as the stored JSON text, in pieces
 * (one per stored chunk), read a page of chunks at a time as the client takes them
 * (openWholeDecisions): the same bytes as `JSON.stringify` of the whole decisions, never parsed,
 * never in memory whole. This is the one read that asks for the decisions of every event stored
 * when it was made: while the run's background rebuild is behind, it waits for it (without
 * rebuilding anything itself) up to CUESCOPE_DECISIONS_WAIT_MS, then answers with the last rebuild
 * and says how many events it does not include yet. It holds one of the project's whole-run read
 * permits (whole-reads.ts) from its first page until the document is closed: beyond them, 503.
 * A bad run or one without decisions is an error before anything is sent; a rebuild that replaces
 * chunks already sent makes `next` fail with a `conflict` (the download ends with an error mark).
 */
export async function openDecisionsDocument(
  db: Database,
  projectId: string,
  runId: string,
  {
    reads = wholeReads(),
    pageChunks,
    reuseMemory = false,
  }: {
    reads?: WholeReads;
    pageChunks?: number;
    /**
     * The reader writes each piece out before it asks for the next (lib/server/http/direct.ts): a
     * page's memory is then used again for a later page once all of its pieces were asked past.
     */
    reuseMemory?: boolean;
  } = {},
): Promise<DocumentPieces & { staleEvents: number }> {
  const run = await findRun(db, projectId, runId);
  if ((await builtEventCount(db, run)) < run.eventCount) {
    wantRebuild(run.projectId, [run.id]);
    // Waits by reading the stored rebuild's event count only, then reads the decisions once.
    const deadline = Date.now() + env("CUESCOPE_DECISIONS_WAIT_MS");
    while (Date.now() < deadline && (await builtEventCount(db, run)) < run.eventCount) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const release = await reads.acquire(projectId);
  try {
    const memory = reuseMemory ? new PageMemory(DOWNLOAD_MEMORY) : null;
    const cursor = await openWholeDecisionBytes(db, run, pageChunks, undefined, memory?.take);
    const checked = checkedHead(run, cursor?.first ?? null);
    if (!checked.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${checked.error}`);
    const pieces = decisionsPieces(run.runId, cursor!, memory);
    return {
      staleEvents: checked.staleEvents,
      next: async () => {
        try {
          const piece = await pieces.next();
          return piece.done ? null : piece.value;
        } catch (error) {
          if (error instanceof DecisionsChangedError) throw new DomainError("conflict", error.message);
          throw error;
        }
      },
      close: release,
    };
  } catch (error) {
    release();
    throw error;
  }
}

const COMMA = 0x2c;

/**
 * The RunDecisions JSON text in pieces of UTF-8 (decisionsJsonOf, written as it is read): the head,
 * then one piece per chunk (its turns as the database holds them: its bytes, never decoded), then
 * the findings of the rebuild the chunks are of. The next page of chunks is read while this page's
 * pieces are sent (one page ahead, never more), so the database's time and the client's overlap
 * instead of adding up.
 */
async function* decisionsPieces(
  runId: string,
  cursor: WholeDecisionsCursor<Uint8Array>,
  memory: PageMemory | null,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(`{"runId":${JSON.stringify(runId)},"turns":[`);
  let first = true;
  memory?.next();
  let reading = cursor.next();
  for (let texts; (texts = await reading);) {
    // The memory the page just read was copied to (the first page, read when the document was
    // opened, has memory of its own), and a new lease for the page read next.
    const lease = memory?.next();
    reading = cursor.next();
    // Awaited when this page has been sent; a document closed before then never awaits it.
    reading.catch(() => {});
    for (const text of texts) {
      // A chunk's text is the JSON array of its turns, `[…]`: the document's array takes what is
      // inside. Its `[` becomes the comma before it (the bytes are this read's own copy).
      if (text.length <= 2) continue;
      if (first) yield text.subarray(1, -1);
      else {
        text[0] = COMMA;
        yield text.subarray(0, -1);
      }
      first = false;
    }
    // Asked past this page's last piece: with reuseMemory, every piece of it has been written out.
    lease?.release();
  }
  yield encoder.encode(`],"findings":${cursor.last().findings}}`);
}

/** The memory reused by direct downloads' pages (lib/server/db/slab-pool.ts). */
const DOWNLOAD_MEMORY = new SlabPool();

/** One lease per page read: `take` copies into the lease of the page being read. */
class PageMemory {
  private current: SlabLease | null = null;
  constructor(private readonly pool: SlabPool) {}
  /** Starts the lease the next page read copies into, and hands back the one before it. */
  next(): SlabLease | null {
    const previous = this.current;
    this.current = this.pool.lease();
    return previous;
  }
  readonly take = (): ((size: number) => Uint8Array) | undefined => this.current?.take;
}

/** The whole decisions' JSON text (openDecisionsDocument, collected: for scripts and tests), read again if a rebuild changed them meanwhile. */
export async function getDecisionsJson(db: Database, projectId: string, runId: string): Promise<{ json: string; staleEvents: number }> {
  for (let attempt = 1; ; attempt++) {
    const document = await openDecisionsDocument(db, projectId, runId);
    try {
      const decoder = new TextDecoder();
      let json = "";
      for (let piece; (piece = await document.next()) !== null;) json += decoder.decode(piece, { stream: true });
      return { json: json + decoder.decode(), staleEvents: document.staleEvents };
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === "conflict") || attempt >= 5) throw error;
    } finally {
      document.close();
    }
  }
}

async function builtEventCount(db: Database, run: RunRow): Promise<number> {
  const stored = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    select: { eventCount: true },
  });
  return stored?.eventCount ?? -1;
}

/** `GET /api/v1/runs/:runId/decisions`, parsed. */
export async function getDecisions(db: Database, projectId: string, runId: string): Promise<TRunDecisions> {
  return ZRunDecisions.parse(JSON.parse((await getDecisionsJson(db, projectId, runId)).json));
}

/** `GET /api/v1/runs/:runId/events`: stored events in arrival order, paged by arrival sequence. */
export async function listRunEvents(db: Database, projectId: string, runId: string, query: TEventsQuery): Promise<TEventsResponse> {
  const run = await findRun(db, projectId, runId);
  const rows = await db.prisma.event.findMany({
    where: {
      projectId,
      runPk: run.id,
      ...(query.turn !== undefined ? { turn: query.turn } : {}),
      ...(query.cursor ? { seq: { gt: BigInt(query.cursor) } } : {}),
    },
    orderBy: { seq: "asc" },
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    events: page.map((row) => ({
      seq: row.seq.toString(),
      receivedAt: row.receivedAt.toISOString(),
      event: eventColumns({ ...row, seq: row.seq.toString() }, run.runId),
    })),
    nextCursor: rows.length > query.limit ? page.at(-1)!.seq.toString() : null,
  };
}

/**
 * `GET /api/v1/runs/:runId/turns/:turn`: the rebuilt decision, findings and events of one turn. It
 * reads the one stored chunk whose turn range holds the turn and the findings (readTurnChunk), never
 * the whole run's decisions: the neighbouring turns with events come from that chunk, the bounds of
 * the chunks either side and the skipped turns among the findings (INCOMPLETE_TURN).
 */
export async function getTurnDetail(db: Database, projectId: string, runId: string, turn: number): Promise<TTurnDetail> {
  const run = await findRun(db, projectId, runId);
  const [stored, rows] = await Promise.all([
    readTurnChunk(db, run, turn),
    db.prisma.event.findMany({ where: { projectId, runPk: run.id, turn }, orderBy: { seq: "asc" } }),
  ]);
  const result = checkedHead(run, stored?.head ?? null);
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  const findings = parsedFindings(result.version, result.findings);
  // Read through the contract (measured: +0.2–1 ms on a 256-turn chunk of 150 kB, over about 1 ms of JSON.parse).
  const turns = stored!.holding === null ? [] : ZTurnDecisions.parse(JSON.parse(stored!.holding));
  // Turns that have events: the rebuilt ones and the skipped ones (INCOMPLETE_TURN).
  let previousTurn = stored!.before;
  let nextTurn = stored!.after;
  let exists = false;
  const seen = (t: number) => {
    if (t < turn) previousTurn = previousTurn === null ? t : Math.max(previousTurn, t);
    else if (t > turn) nextTurn = nextTurn === null ? t : Math.min(nextTurn, t);
    else exists = true;
  };
  for (const t of turns) seen(t.turn);
  for (const f of findings) if (f.code === "INCOMPLETE_TURN" && f.turn !== null) seen(f.turn);
  return {
    runId,
    turn,
    decision: turns.find((t) => t.turn === turn) ?? null,
    exists,
    findings: findings.filter((f) => f.turn === turn),
    events: inRunOrder(
      rows
        .filter((r) => r.type !== "run.started" && r.type !== "run.ended")
        .map((r) => eventColumns({ ...r, seq: r.seq.toString() }, run.runId)),
    ),
    previousTurn,
    nextTurn,
  };
}

/** A stored rebuild's findings, parsed once per stored rebuild (a run's findings are few: tens of kB). */
function parsedFindings(version: string, json: string): TFinding[] {
  let hit = findingsCache.get(version);
  if (!hit) findingsCache.set(version, (hit = { findings: ZFindings.parse(JSON.parse(json)), bytes: jsonTextBytes(json.length) }));
  return hit.findings;
}

const ZTurnDecisions = z.array(ZTurnDecision);
const ZFindings = z.array(ZFinding);

const findingsCache = runCache<{ findings: TFinding[]; bytes: number }>({ sizeOf: (entry) => entry.bytes });
