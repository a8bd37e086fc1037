import type { Database } from "@/lib/server/db";

/**
 * Reads of a run's stored rebuild: its run_decisions row and the run_decision_chunks that a read
 * needs (lib/server/runs/decision-chunks.ts), each in ONE statement, so the row and its chunks are
 * of the same rebuild even while a rebuild of the run commits (a rebuild writes them in one
 * transaction; a statement sees one snapshot). Chunks come back as their JSON texts, unparsed.
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

const HEAD = `d."run_pk" AS "runPk", d."event_count" AS "eventCount", d."max_seq"::text AS "maxSeq", d."findings",
  d."summary"::text AS "summary", d."error"`;
const OF_RUN = `FROM "run_decision_chunks" c WHERE c."project_id" = d."project_id" AND c."run_pk" = d."run_pk"`;

type HeadRow = Omit<StoredHead, "summary"> & { summary: string | null };

function headOf(row: HeadRow): StoredHead {
  return { ...row, summary: row.summary === null ? null : (JSON.parse(row.summary) as unknown) };
}

/** The row and every chunk text in chunk order (the whole decisions: GET …/decisions, jobs). Null when there is no row. */
export async function readWholeDecisions(
  db: Database,
  run: { projectId: string; id: string },
): Promise<{ head: StoredHead; chunkTexts: string[] } | null> {
  const [row] = await db.prisma.$queryRawUnsafe<(HeadRow & { chunkTexts: string[] | null })[]>(
    `SELECT ${HEAD}, (SELECT array_agg(c."turns" ORDER BY c."chunk") ${OF_RUN}) AS "chunkTexts"
       FROM "run_decisions" d WHERE d."project_id" = $1 AND d."run_pk" = $2`,
    run.projectId,
    run.id,
  );
  if (!row) return null;
  const { chunkTexts, ...head } = row;
  return { head: headOf(head), chunkTexts: chunkTexts ?? [] };
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
 * overlap it in chunk order, and the whole run's first and last rebuilt turn (null without turns).
 */
export async function readWindowChunks(
  db: Database,
  run: { projectId: string; id: string },
  from: number,
  to: number,
): Promise<{ head: StoredHead; chunkTexts: string[]; runTurnRange: [number, number] | null } | null> {
  const [row] = await db.prisma.$queryRawUnsafe<(HeadRow & { chunkTexts: string[] | null; first: number | null; last: number | null })[]>(
    `SELECT ${HEAD},
            (SELECT array_agg(c."turns" ORDER BY c."chunk") ${OF_RUN} AND c."last_turn" >= $3 AND c."first_turn" <= $4) AS "chunkTexts",
            (SELECT c."first_turn" ${OF_RUN} ORDER BY c."chunk" LIMIT 1) AS "first",
            (SELECT c."last_turn" ${OF_RUN} ORDER BY c."chunk" DESC LIMIT 1) AS "last"
       FROM "run_decisions" d WHERE d."project_id" = $1 AND d."run_pk" = $2`,
    run.projectId,
    run.id,
    Math.max(from, -(2 ** 31)),
    Math.min(to, 2 ** 31 - 1),
  );
  if (!row) return null;
  const { chunkTexts, first, last, ...head } = row;
  return {
    head: headOf(head),
    chunkTexts: chunkTexts ?? [],
    runTurnRange: first === null || last === null ? null : [Number(first), Number(last)],
  };
}
