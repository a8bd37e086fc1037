import type { TEvent } from "../../contracts";
import type { Database } from "../db";

interface EventRow {
  eventId: string;
  type: string;
  ts: string;
  turn: number | null;
  body: unknown;
}

/** A stored row as the validated event it was stored from (events are validated on ingest). */
export function toEvent(row: EventRow, runId: string): TEvent {
  const event = { id: row.eventId, runId, type: row.type, ts: row.ts, body: row.body } as Record<string, unknown>;
  if (row.turn !== null) event.turn = row.turn;
  return event as unknown as TEvent;
}

/** Every stored event of a run, in arrival order (the core puts them in run order). */
export async function loadRunEvents(db: Database, run: { id: string; runId: string }): Promise<TEvent[]> {
  const rows = await db.prisma.event.findMany({
    where: { runPk: run.id },
    orderBy: { seq: "asc" },
    select: { eventId: true, type: true, ts: true, turn: true, body: true },
  });
  return rows.map((row) => toEvent(row, run.runId));
}
