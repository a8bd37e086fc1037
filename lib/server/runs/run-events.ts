import type { TEvent } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { eventColumns, type EventRow } from "@/lib/server/db/json-columns";

/**
 * Every stored event of a run, in arrival order (the core puts them in run order). Read with one
 * raw query, bodies as JSON text: Prisma's per-row JSON decoding costs more than the rebuild.
 */
export async function loadRunEvents(db: Database, run: { id: string; runId: string }): Promise<TEvent[]> {
  return queryEvents(db, run, "", []);
}

type RawEventRow = EventRow & { body: string };

/**
 * One raw query over a run's events (optionally narrowed by `condition` on $2…), bodies parsed from
 * text, each row read back through the event contract (json-columns.ts).
 */
async function queryEvents(db: Database, run: { id: string; runId: string }, condition: string, params: unknown[]): Promise<TEvent[]> {
  const rows = await db.prisma.$queryRawUnsafe<RawEventRow[]>(
    `SELECT "seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn", "body"::text AS "body" FROM "events"
      WHERE "run_pk" = $1${condition} ORDER BY "seq"`,
    run.id,
    ...params,
  );
  return rows.map((row) => eventColumns({ ...row, body: JSON.parse(row.body) }, run.runId));
}

/** The event types the run page's lanes and markers read (compactions, Reviewer flow, notifications). */
export const TIMELINE_EVENT_TYPES = [
  "run.started",
  "context.compaction",
  "reviewer.candidate",
  "reviewer.admission",
  "reviewer.dispatched",
  "reviewer.completed",
  "reviewer.cancelled",
  "user.notified",
] as const;

/** Only the run's events of the given types, in arrival order. */
export async function loadRunEventsOfTypes(db: Database, run: { id: string; runId: string }, types: readonly string[]): Promise<TEvent[]> {
  return queryEvents(db, run, ` AND "type" = ANY($2::text[])`, [[...types]]);
}
