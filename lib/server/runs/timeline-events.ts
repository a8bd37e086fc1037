import type { TEvent } from "@/lib/contracts";
import { REVIEWER_LANE_EVENT_TYPES, reviewerEventsForWindow } from "@/lib/reviewer/window-events";
import type { Database } from "@/lib/server/db";
import { storedEvent, type StoredEventRow } from "@/lib/server/db/json-columns";

type RunKey = { projectId: string; id: string; runId: string };

/** The timeline's events of a window's turns that are not the Reviewer lane's. */
const WINDOW_TYPES = ["context.compaction", "user.notified"];

const COLUMNS = `"seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn", "body"::text AS "body"`;
const REVIEWER_TYPES = REVIEWER_LANE_EVENT_TYPES.map((type) => `'${type}'`).join(", ");

/** What a window's read of the events took: the rows with bodies read, and the Reviewer events' key rows. */
export interface WindowEventsRead {
  events: TEvent[];
  /** Event rows read with their bodies (parsed): the window's, the run.started, the Reviewer chains'. */
  bodyRows: number;
  /** The run's Reviewer events read as keys only (type, turn, ts, id, candidateId, dispatchId; no body). */
  keyRows: number;
}

/**
 * The events the timeline of the window of turns [from, to] needs, equal in what buildTimeline makes
 * of them to all of the run's TIMELINE_EVENT_TYPES (lib/charts): the run.started (the policy), the
 * compactions and notifications of the window's turns, and the Reviewer events of the chains that
 * touch or span the window (lib/reviewer/window-events.ts). `end` is the run's last rebuilt turn.
 *
 * Three indexed statements: the window's events through (project_id, run_pk, turn) and the
 * run.started through its partial index; the run's Reviewer events as keys only through their
 * partial index (a few columns, no body: about 40 bytes a Reviewer event, 4 % of a run's events);
 * then the bodies of just the Reviewer events chosen, by primary key. No body outside the window
 * and its chains is read or parsed.
 */
export async function loadWindowTimelineEvents(
  db: Database,
  run: RunKey,
  from: number,
  to: number,
  end: number,
): Promise<WindowEventsRead> {
  const low = Math.max(from, -(2 ** 31));
  const high = Math.min(to, 2 ** 31 - 1);
  const [windowRows, keyRows] = await Promise.all([
    db.prisma.$queryRawUnsafe<StoredEventRow[]>(
      `SELECT ${COLUMNS} FROM "events"
        WHERE "project_id" = $1 AND "run_pk" = $2 AND "turn" BETWEEN $3 AND $4 AND "type" = ANY($5::text[])
       UNION ALL
       SELECT ${COLUMNS} FROM "events" WHERE "project_id" = $1 AND "run_pk" = $2 AND "type" = 'run.started'`,
      run.projectId,
      run.id,
      low,
      high,
      WINDOW_TYPES,
    ),
    db.prisma.$queryRawUnsafe<(Omit<StoredEventRow, "body"> & { candidateId: string | null; dispatchId: string | null })[]>(
      `SELECT "seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn",
              "body"->>'candidateId' AS "candidateId", "body"->>'dispatchId' AS "dispatchId"
         FROM "events" WHERE "project_id" = $1 AND "run_pk" = $2 AND "type" IN (${REVIEWER_TYPES})`,
      run.projectId,
      run.id,
    ),
  ]);
  const seqOf = new Map<TEvent, string>();
  const keyed = keyRows.map((row) => {
    const event = keyEvent(row, run.runId);
    seqOf.set(event, row.seq);
    return event;
  });
  const chosen = reviewerEventsForWindow(keyed, from, to, end).map((event) => seqOf.get(event)!);
  const chainRows = chosen.length
    ? await db.prisma.$queryRawUnsafe<StoredEventRow[]>(
        `SELECT ${COLUMNS} FROM "events" WHERE "project_id" = $1 AND "seq" = ANY($2::bigint[]) AND "run_pk" = $3`,
        run.projectId,
        chosen,
        run.id,
      )
    : [];
  const rows = [...windowRows, ...chainRows];
  return { events: rows.map((row) => storedEvent(row, run.runId)), bodyRows: rows.length, keyRows: keyRows.length };
}

/**
 * A Reviewer event's keys as an event of its type, for choosing the chains (reviewerEventsForWindow
 * reads only the keys, the turn and the run order); the other fields of its body are placeholders.
 */
function keyEvent(row: Omit<StoredEventRow, "body"> & { candidateId: string | null; dispatchId: string | null }, runId: string): TEvent {
  const body = { candidateId: row.candidateId ?? "", dispatchId: row.dispatchId ?? "", granted: false, reasons: [], reason: "" };
  return { id: row.eventId, runId, type: row.type, ts: row.ts, turn: row.turn ?? 0, body } as unknown as TEvent;
}
