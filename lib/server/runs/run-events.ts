import type { TEvent } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
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
export function queryEventRows(db: Database, run: RunKey, condition = "", params: unknown[] = []): Promise<StoredEventRow[]> {
  return db.prisma.$queryRawUnsafe<StoredEventRow[]>(
    `SELECT "seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn", "body"::text AS "body" FROM "events"
      WHERE "project_id" = $1 AND "run_pk" = $2${condition} ORDER BY "events"."seq"`,
    run.projectId,
    run.id,
    ...params,
  );
}
