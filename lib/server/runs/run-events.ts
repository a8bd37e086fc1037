import type { TEvent } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { copyTextRows, lastCopyRow, sqlLiteral } from "@/lib/server/db/copy-binary";
import { storedEvent, type StoredEventRow } from "@/lib/server/db/json-columns";

/** What names a run's events: its project and row id (the events' key to their run). */
type RunKey = { projectId: string; id: string };

/**
 * Every stored event of a run, in arrival order (the core puts them in run order). Read with one
 * raw query, bodies as JSON text: Prisma's per-row JSON decoding costs more than the rebuild.
 */
export async function loadRunEvents(db: Database, run: RunKey & { runId: string }): Promise<TEvent[]> {
  return (await queryEventRows(db, run)).map((row) => storedEvent(row, run.runId));
}

/** Only the run's events of the given types, in arrival order. */
export async function loadRunEventsOfTypes(db: Database, run: RunKey & { runId: string }, types: readonly string[]): Promise<TEvent[]> {
  return (await queryEventRows(db, run, ` AND "type" = ANY($3::text[])`, [[...types]])).map((row) => storedEvent(row, run.runId));
}

/**
 * One raw query over a run's events in arrival order (optionally narrowed by `condition` on $3…),
 * bodies left as JSON text: the rebuild and replay jobs hand the rows to a job thread, which parses
 * them (`storedEvent`). Ordered by the column, not by the text it is read as ("999" > "2900").
 */
export function queryEventRows(
  db: Database,
  run: RunKey,
  condition = "",
  params: unknown[] = [],
  limit?: number,
): Promise<StoredEventRow[]> {
  return db.prisma.$queryRawUnsafe<StoredEventRow[]>(
    `SELECT "seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn", "body"::text AS "body" FROM "events"
      WHERE "project_id" = $1 AND "run_pk" = $2${condition} ORDER BY "events"."seq"${limit === undefined ? "" : ` LIMIT ${Math.trunc(limit)}`}`,
    run.projectId,
    run.id,
    ...params,
  );
}

/** How many event rows one query of `readEventRowsInPages` reads. */
export const EVENT_ROWS_PAGE = 1000;

/**
 * A run's event rows in arrival order, as `queryEventRows(db, run)`, but read `pageRows` at a time
 * (after the last page's seq, through the events' (project, run, seq) index): for a job reading a
 * whole long run next to requests, no query holds the database for the whole run, and the event
 * loop gets a turn between pages (on PostgreSQL each page is I/O; on the embedded database every
 * statement starts from a turn of its own, lib/server/db/pglite-gate.ts): a request waits at most
 * about one page behind it.
 */
export async function readEventRowsInPages(db: Database, run: RunKey, pageRows = EVENT_ROWS_PAGE): Promise<StoredEventRow[]> {
  const rows: StoredEventRow[] = [];
  for (;;) {
    const after = rows.length ? rows[rows.length - 1].seq : null;
    const page = await (after === null
      ? queryEventRows(db, run, "", [], pageRows)
      : queryEventRows(db, run, ` AND "seq" > $3::bigint`, [after], pageRows));
    for (const row of page) rows.push(row);
    if (page.length < pageRows) return rows;
  }
}

/**
 * How many event rows one statement of `readEventCopyPages` reads. On the embedded database each
 * statement also costs a few ms of its own on the event loop (planning over the events' partitions,
 * the COPY's set-up): all 41 runs of the scale bench's 200k events took 1.5 s of CPU in pages of
 * 1,000, 1.2 s in pages of 2,000, 0.9 s in pages of 5,000. A page of 2,500 holds the loop about
 * 10 ms (about 4 µs a row), well within what a request may wait behind it.
 */
export const EVENT_COPY_PAGE_ROWS = 2500;

/**
 * A run's event rows as `readEventRowsInPages` reads them (`pageRows` at a time), but each page as the bytes of a binary
 * COPY of it (Database.copyBytes), never read into rows here: for the replay, which hands the pages
 * to a job thread as they are (transferred, not copied) to be read there (`eventRowsOfCopyPages`).
 * On the embedded database this keeps the rows' decoding (a string per field), and their copy to
 * the thread, off the event loop that serves requests; only the statements themselves run on it.
 */
export async function readEventCopyPages(db: Database, run: RunKey, pageRows = EVENT_COPY_PAGE_ROWS): Promise<Uint8Array[]> {
  const pages: Uint8Array[] = [];
  const where = `"project_id" = ${sqlLiteral(run.projectId)} AND "run_pk" = ${sqlLiteral(run.id)}`;
  for (let after: string | null = null; ;) {
    const page = await db.copyBytes(
      `SELECT "seq"::text, "event_id", "type", "ts", "turn"::text, "body"::text FROM "events"
        WHERE ${where}${after === null ? "" : ` AND "seq" > ${sqlLiteral(after)}::bigint`} ORDER BY "events"."seq" LIMIT ${Math.trunc(pageRows)}`,
    );
    const { rows, last } = lastCopyRow(page);
    if (rows > 0) pages.push(page);
    if (rows < pageRows) return pages;
    after = new TextDecoder().decode(last![0]!);
  }
}

/** The event rows of `readEventCopyPages`'s pages, in order, as `queryEventRows` reads them. Pure, for a job thread. */
export function eventRowsOfCopyPages(pages: readonly Uint8Array[]): StoredEventRow[] {
  const rows: StoredEventRow[] = [];
  for (const page of pages) {
    for (const fields of copyTextRows(page)) {
      if (fields.length !== 6) throw new Error(`an event row has ${fields.length} columns, not 6`);
      const [seq, eventId, type, ts, turn, body] = fields;
      rows.push({ seq: seq!, eventId: eventId!, type: type!, ts: ts!, turn: turn === null ? null : Number(turn), body: body! });
    }
  }
  return rows;
}
