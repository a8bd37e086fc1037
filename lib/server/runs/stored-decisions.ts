import type { Database } from "@/lib/server/db";
import type { Prisma } from "@/lib/server/db/generated/client";
import { sqlLiteral } from "@/lib/server/db/copy-binary";
import type { DecisionChunk } from "./decision-chunks";

/**
 * Reads of a run's stored rebuild: its run_decisions row and the run_decision_chunks that a read
 * needs (lib/server/runs/decision-chunks.ts), each in ONE statement, so the row and its chunks are
 * of the same rebuild even while a rebuild of the run commits (a rebuild writes them in one
 * transaction; a statement sees one snapshot); a read of the whole run, in pages of chunks, checks
 * that the pages are of one rebuild (openWholeDecisions). Chunks come back as their JSON texts,
 * unparsed, one row each: never as an aggregated array (node-postgres parses a text array in
 * JavaScript, about 2 MB/s, on the event loop; rows of text arrive as they are).
 */

/** The run_decisions row without the turns: what every read of the decisions needs. */
export interface StoredHead {
  runPk: string;
  eventCount: number;
  maxSeq: string;
  /** The findings as JSON text; null when the rebuild failed (then `error` says why). */
  findings: string | null;
  /** run_decisions.summary, parsed from its text (read back through its contract by the caller). */
  summary: unknown;
  error: string | null;
}

/**
 * run_decisions.summary as the reads of a run's stored rebuild take it (SQL, of `d`): without its
 * follow-up and fatigue sums (`effectCounts`), which only GET /api/v1/runs/:runId/effectiveness
 * reads. They are kept per key, stage and context stage, and a review reminder's stage is its
 * checkpoint, so they grow with the run (about 8,400 entries, 340 kB, in a 50,000-turn run): read
 * with every header, turn and runs list row, they made those reads grow with the run too.
 */
export const SUMMARY_WITHOUT_EFFECT_COUNTS = `(d."summary" - 'effectCounts')`;

const HEAD = `d."run_pk" AS "runPk", d."event_count" AS "eventCount", d."max_seq"::text AS "maxSeq", d."findings",
  ${SUMMARY_WITHOUT_EFFECT_COUNTS}::text AS "summary", d."error"`;
const OF_RUN = `FROM "run_decision_chunks" c WHERE c."project_id" = d."project_id" AND c."run_pk" = d."run_pk"`;

type HeadRow = Omit<StoredHead, "summary"> & { summary: string | null };

function headOf(row: HeadRow): StoredHead {
  return { ...row, summary: row.summary === null ? null : (JSON.parse(row.summary) as unknown) };
}

/**
 * How many chunks one statement of a whole-run read takes: about 5 MB of text (1.3 kB a turn), so
 * no statement, and no tick that takes its rows, grows with the run.
 */
export const WHOLE_READ_PAGE_CHUNKS = 16;

/**
 * A whole-run read found that a rebuild replaced chunks it had already handed out: what it read
 * would mix two rebuilds. A job reads again; a download already under way ends with an error mark.
 */
export class DecisionsChangedError extends Error {
  override readonly name = "DecisionsChangedError";
  constructor() {
    super("the run was rebuilt while its decisions were read; read them again");
  }
}

/**
 * A run's stored decisions read page by page: chunk texts in chunk order, `pageChunks` chunks a
 * statement, each page read as plain rows (one row per chunk, never one aggregated array, which
 * node-postgres would parse character by character on the event loop).
 *
 * The pages are of one stored rebuild without holding a transaction open: every page's statement
 * also reads the row versions (`xmin`) of the chunks handed out before it, and they must be the
 * ones read then (a rebuild deletes and inserts the chunks it writes, so a rewritten chunk has
 * another xmin). The chunks handed out, the page and the row it is read with are then all of the
 * stored rebuild that page's statement saw: a resume that rewrote only chunks not yet handed out
 * does not disturb a read, anything else throws DecisionsChangedError.
 *
 * `Chunk` is how a chunk's text is handed out: a string (openWholeDecisions), or its UTF-8 bytes
 * as the database holds them (openWholeDecisionBytes, for a download: never decoded, never encoded).
 */
export interface WholeDecisionsCursor<Chunk = string> {
  /** The row as the first page's statement read it. */
  readonly first: StoredHead;
  /** The next chunk texts (at least one), in chunk order; null after the last. */
  next(): Promise<Chunk[] | null>;
  /**
   * The row as the last statement read it, which every chunk handed out belongs with: its findings
   * end the document. Equal to `first` unless a rebuild that kept the chunks read so far landed.
   */
  last(): StoredHead;
}

/** One page's statement: the row (with the xmins of the chunks before `from`) and the page's chunks. */
interface PageRows<Chunk> {
  head: (HeadRow & { prefix: string | null }) | null;
  chunks: { chunk: number; xmin: string; turns: Chunk }[];
}

/**
 * The statement of a page, every column as text: the row of the run (chunk NULL) with the xmins of
 * the chunks before `from`, then up to `limit` chunks from `from` on. The four arguments are SQL:
 * parameters ($1…) or literals (COPY takes no parameters).
 */
function pageStatement(projectId: string, runPk: string, from: string, limit: string): string {
  return `SELECT d."run_pk"::text AS "runPk", d."event_count"::text AS "eventCount", d."max_seq"::text AS "maxSeq", d."findings"::text AS "findings",
              ${SUMMARY_WITHOUT_EFFECT_COUNTS}::text AS "summary", d."error"::text AS "error",
              (SELECT string_agg(c."xmin"::text, ',' ORDER BY c."chunk") ${OF_RUN} AND c."chunk" < ${from}) AS "prefix",
              NULL::text AS "chunk", NULL::text AS "xmin", NULL::text AS "turns"
         FROM "run_decisions" d WHERE d."project_id" = ${projectId} AND d."run_pk" = ${runPk}
       UNION ALL
       SELECT * FROM (
         SELECT NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, c."chunk"::text, c."xmin"::text, c."turns"
           FROM "run_decision_chunks" c WHERE c."project_id" = ${projectId} AND c."run_pk" = ${runPk} AND c."chunk" >= ${from}
          ORDER BY c."chunk" LIMIT ${limit}) AS "page"`;
}

/** A page statement's columns, in its order (a binary COPY's fields come in this order). */
const COLUMNS = ["runPk", "eventCount", "maxSeq", "findings", "summary", "error", "prefix", "chunk", "xmin", "turns"] as const;

type TextRow = { [K in (typeof COLUMNS)[number]]: string | null };

/** A page's rows as read (`turnsOf(row, i)`: the turns of the i-th row, a chunk's). */
function pageRows<Chunk>(rows: readonly TextRow[], turnsOf: (row: TextRow, i: number) => Chunk): PageRows<Chunk> {
  let head: PageRows<Chunk>["head"] = null;
  const chunks: PageRows<Chunk>["chunks"] = [];
  for (const [i, row] of rows.entries()) {
    if (row.chunk === null) {
      head = {
        runPk: row.runPk!,
        eventCount: Number(row.eventCount),
        maxSeq: row.maxSeq!,
        findings: row.findings,
        summary: row.summary,
        error: row.error,
        prefix: row.prefix,
      };
    } else chunks.push({ chunk: Number(row.chunk), xmin: row.xmin!, turns: turnsOf(row, i) });
  }
  chunks.sort((a, b) => a.chunk - b.chunk);
  return { head, chunks };
}

/** Reads of the whole run opened the same way, whatever a chunk is handed out as. */
async function openWholeRead<Chunk>(
  readPage: (from: number, pageChunks: number) => Promise<PageRows<Chunk>>,
  pageChunks: number,
  firstPageChunks = pageChunks,
): Promise<WholeDecisionsCursor<Chunk> | null> {
  /** The xmins of the chunks handed out, joined as the statement joins them. */
  let handedOut = "";
  let from = 0;
  let done = false;

  const page = async (): Promise<{ head: StoredHead; texts: Chunk[] } | null> => {
    const limit = from === 0 ? firstPageChunks : pageChunks;
    const { head: headRow, chunks } = await readPage(from, limit);
    if (!headRow) return null;
    if ((headRow.prefix ?? "") !== handedOut) throw new DecisionsChangedError();
    for (const [i, chunk] of chunks.entries()) if (chunk.chunk !== from + i) throw new DecisionsChangedError(); // a gap: never written so
    if (chunks.length < limit) done = true;
    from += chunks.length;
    for (const chunk of chunks) handedOut += `${handedOut ? "," : ""}${chunk.xmin}`;
    const { prefix: _prefix, ...head } = headRow;
    return { head: headOf(head), texts: chunks.map((chunk) => chunk.turns) };
  };

  const opened = await page();
  if (!opened) return null;
  let pending: Chunk[] | null = opened.texts;
  let last = opened.head;
  return {
    first: opened.head,
    last: () => last,
    async next() {
      while (true) {
        if (pending && pending.length > 0) {
          const texts = pending;
          pending = null;
          return texts;
        }
        if (done) return null;
        const read = await page();
        // The row is gone (the run was deleted) or now holds a failed rebuild: not the decisions begun.
        if (!read || read.head.findings === null) throw new DecisionsChangedError();
        last = read.head;
        pending = read.texts;
      }
    },
  };
}

/** Opens a whole-run read and reads its first page; null when the run has no stored rebuild. */
export function openWholeDecisions(
  db: Database,
  run: { projectId: string; id: string },
  pageChunks = WHOLE_READ_PAGE_CHUNKS,
): Promise<WholeDecisionsCursor | null> {
  return openWholeRead(async (from, limit) => {
    const rows = await db.prisma.$queryRawUnsafe<TextRow[]>(pageStatement("$1", "$2", "$3", "$4"), run.projectId, run.id, from, limit);
    return pageRows(rows, (row) => row.turns!);
  }, pageChunks);
}

/**
 * openWholeDecisions with each chunk's text handed out as its UTF-8 bytes (a copy of its own, so
 * the reader may change them), read with binary COPY (Database.copyRows): never decoded into a
 * string, so a download sends them on without encoding them again.
 */
export function openWholeDecisionBytes(
  db: Database,
  run: { projectId: string; id: string },
  pageChunks = WHOLE_READ_PAGE_CHUNKS,
  // A short first page by default: a download's first bytes go out sooner, and its next page is
  // read while they are sent.
  firstPageChunks = Math.min(pageChunks, 2),
  /**
   * Where each page's chunk bytes are copied to, asked once as each page is read (undefined: memory
   * of their own). The caller owns that memory's lifetime: the direct download reuses it once the
   * socket took the page (run-reads.ts).
   */
  pageMemory?: () => ((size: number) => Uint8Array) | undefined,
): Promise<WholeDecisionsCursor<Uint8Array> | null> {
  const decoder = new TextDecoder();
  return openWholeRead(
    async (from, limit) => {
      const statement = pageStatement(sqlLiteral(run.projectId), sqlLiteral(run.id), String(from), String(limit));
      const copied = await db.copyRows(statement, { allocate: pageMemory?.() });
      const rows = copied.map((fields) => {
        if (fields.length !== COLUMNS.length) throw new Error(`a page row has ${fields.length} columns, not ${COLUMNS.length}`);
        const row = {} as TextRow;
        // Every column but the turns is short: decoded; the turns stay bytes.
        COLUMNS.forEach((name, i) => (row[name] = name === "turns" || fields[i] === null ? null : decoder.decode(fields[i])));
        return row;
      });
      return pageRows(rows, (_, i) => {
        const turns = copied[i][COLUMNS.length - 1];
        if (turns === null) throw new Error("a stored chunk without turns");
        return turns;
      });
    },
    pageChunks,
    firstPageChunks,
  );
}

/**
 * The row and every chunk text in chunk order (the jobs' reads of a whole run), page by page
 * (openWholeDecisions), read again when a rebuild replaced chunks meanwhile. The row is the one
 * the chunks belong with. Null when there is no row.
 */
export function readWholeDecisions(
  db: Database,
  run: { projectId: string; id: string },
  pageChunks = WHOLE_READ_PAGE_CHUNKS,
): Promise<{ head: StoredHead; chunkTexts: string[] } | null> {
  return readWhole(() => openWholeDecisions(db, run, pageChunks));
}

async function readWhole<Chunk>(
  open: () => Promise<WholeDecisionsCursor<Chunk> | null>,
): Promise<{ head: StoredHead; chunkTexts: Chunk[] } | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      const cursor = await open();
      if (!cursor) return null;
      const chunkTexts: Chunk[] = [];
      for (let texts; (texts = await cursor.next());) for (const text of texts) chunkTexts.push(text);
      return { head: cursor.last(), chunkTexts };
    } catch (error) {
      if (!(error instanceof DecisionsChangedError) || attempt >= 5) throw error;
    }
  }
}

/**
 * What one turn's read needs: the row, the text of the chunk whose turn range holds `turn` (null
 * when none does), and the last turn of the chunks before `turn` and the first of those after it
 * (from the chunks' first_turn and last_turn, through their indexes: no other chunk is read).
 */
export async function readTurnChunk(
  db: Database,
  run: { projectId: string; id: string },
  turn: number,
): Promise<{ head: StoredHead; holding: string | null; before: number | null; after: number | null } | null> {
  const [row] = await db.prisma.$queryRawUnsafe<(HeadRow & { holding: string | null; before: number | null; after: number | null })[]>(
    `SELECT ${HEAD},
            (SELECT c."turns" ${OF_RUN} AND c."first_turn" <= $3 AND c."last_turn" >= $3 ORDER BY c."first_turn" DESC LIMIT 1) AS "holding",
            (SELECT max(c."last_turn") ${OF_RUN} AND c."last_turn" < $3) AS "before",
            (SELECT min(c."first_turn") ${OF_RUN} AND c."first_turn" > $3) AS "after"
       FROM "run_decisions" d WHERE d."project_id" = $1 AND d."run_pk" = $2`,
    run.projectId,
    run.id,
    turn,
  );
  if (!row) return null;
  const { holding, before, after, ...head } = row;
  return { head: headOf(head), holding, before: before === null ? null : Number(before), after: after === null ? null : Number(after) };
}

/**
 * What a window of turns [from, to] needs: the row, the texts of the chunks whose turn ranges
 * overlap it in chunk order, the whole run's first and last rebuilt turn (null without turns), and
 * the rebuild's long Reviewer chains (run_decisions.reviewer_spans, lib/server/runs/timeline-events.ts).
 */
export async function readWindowChunks(
  db: Database,
  run: { projectId: string; id: string },
  from: number,
  to: number,
): Promise<{ head: StoredHead; chunkTexts: string[]; runTurnRange: [number, number] | null; reviewerSpans: string | null } | null> {
  // The row with the run's turn range, and the overlapping chunks as rows of their own (never one
  // aggregated array), in one statement: one snapshot, so they are of one rebuild.
  const rows = await db.prisma.$queryRawUnsafe<
    (HeadRow & { first: number | null; last: number | null; reviewerSpans: string | null; chunk: number | null; turns: string | null })[]
  >(
    `SELECT ${HEAD},
            (SELECT c."first_turn" ${OF_RUN} ORDER BY c."chunk" LIMIT 1) AS "first",
            (SELECT c."last_turn" ${OF_RUN} ORDER BY c."chunk" DESC LIMIT 1) AS "last",
            d."reviewer_spans" AS "reviewerSpans", NULL::int AS "chunk", NULL::text AS "turns"
       FROM "run_decisions" d WHERE d."project_id" = $1 AND d."run_pk" = $2
     UNION ALL
     SELECT NULL::text, NULL::int, NULL::text, NULL::text, NULL::text, NULL::text, NULL::int, NULL::int, NULL::text, c."chunk", c."turns"
       FROM "run_decision_chunks" c
      WHERE c."project_id" = $1 AND c."run_pk" = $2 AND c."last_turn" >= $3 AND c."first_turn" <= $4`,
    run.projectId,
    run.id,
    Math.max(from, -(2 ** 31)),
    Math.min(to, 2 ** 31 - 1),
  );
  const row = rows.find((r) => r.chunk === null);
  if (!row) return null;
  const { first, last, reviewerSpans, chunk: _chunk, turns: _turns, ...head } = row;
  const chunks = rows.filter((r) => r.chunk !== null).sort((a, b) => a.chunk! - b.chunk!);
  return {
    head: headOf(head),
    chunkTexts: chunks.map((c) => c.turns!),
    runTurnRange: first === null || last === null ? null : [Number(first), Number(last)],
    reviewerSpans,
  };
}

/**
 * The writer of run_decision_chunks, beside their reads (a rebuild stores a run's chunks with its
 * decisions row, in its transaction: lib/server/rebuild/rebuild-run.ts).
 */
/** At most this many characters of chunk text go into one INSERT. */
const INSERT_CHARS = 8_000_000;

/** Replaces the run's chunks from `fromChunk` on with `chunks` (the chunks before it are not touched). */
export async function storeChunks(
  tx: Prisma.TransactionClient,
  run: { projectId: string; id: string },
  { fromChunk, chunks }: { fromChunk: number; chunks: readonly DecisionChunk[] },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `DELETE FROM "run_decision_chunks" WHERE "project_id" = $1 AND "run_pk" = $2 AND "chunk" >= $3`,
    run.projectId,
    run.id,
    fromChunk,
  );
  for (let at = 0; at < chunks.length;) {
    const batch: DecisionChunk[] = [];
    for (let chars = 0; at < chunks.length && (batch.length === 0 || chars + chunks[at].json.length <= INSERT_CHARS); at++) {
      chars += chunks[at].json.length;
      batch.push(chunks[at]);
    }
    await tx.$executeRawUnsafe(
      `INSERT INTO "run_decision_chunks" ("project_id", "run_pk", "chunk", "first_turn", "last_turn", "turn_count", "turns")
       SELECT $1, $2, u.* FROM unnest($3::int[], $4::int[], $5::int[], $6::int[], $7::text[]) AS u`,
      run.projectId,
      run.id,
      batch.map((c) => c.chunk),
      batch.map((c) => c.firstTurn),
      batch.map((c) => c.lastTurn),
      batch.map((c) => c.turnCount),
      batch.map((c) => c.json),
    );
  }
}
