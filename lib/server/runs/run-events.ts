import type { TEvent } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { eventColumns, type EventRow } from "@/lib/server/db/json-columns";

/**
 * Every stored event of a run, in arrival order (the core puts them in run order). Read with one
 * raw query, bodies as JSON text: Prisma's per-row JSON decoding costs more than the rebuild.
 */
export async function loadRunEvents(db: Database, run: RunKey): Promise<TEvent[]> {
  return queryEvents(db, run, "", []);
}

type RawEventRow = EventRow & { body: string };

/** What names a run's events: its project and row id (the events' key to their run), and the agent's run id. */
type RunKey = { projectId: string; id: string; runId: string };

/**
 * One raw query over a run's events (optionally narrowed by `condition` on $3…), bodies parsed from
 * text, each row read back through the event contract (json-columns.ts).
 */
async function queryEvents(db: Database, run: RunKey, condition: string, params: unknown[]): Promise<TEvent[]> {
  const rows = await db.prisma.$queryRawUnsafe<RawEventRow[]>(
    `SELECT "seq"::text AS "seq", "event_id" AS "eventId", "type", "ts", "turn", "body"::text AS "body" FROM "events"
      WHERE "project_id" = $1 AND "run_pk" = $2${condition} ORDER BY "events"."seq"`,
    run.projectId,
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
export async function loadRunEventsOfTypes(db: Database, run: RunKey, types: readonly string[]): Promise<TEvent[]> {
  return queryEvents(db, run, ` AND "type" = ANY($3::text[])`, [[...types]]);
}
