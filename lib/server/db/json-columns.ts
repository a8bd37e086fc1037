import { z } from "zod";
import {
  problemsFrom,
  ZCopy,
  ZDecisionsSummary,
  ZEvent,
  ZPolicy,
  ZRunProjection,
  ZRunProjectionCheck,
  ZReplayFilters,
  ZReplayResult,
  ZReviewerCandidateRow,
  type TCopy,
  type TEvent,
  type TPolicy,
  type TProblem,
  type TReplayFilters,
  type TReplayResult,
} from "@/lib/contracts";
import type { Prisma } from "./generated/client";

/**
 * The JSON columns, read back through their contracts. Every document in them was written by this
 * server from a value that had passed the same schema, so one that no longer parses is a server
 * fault (a hand edit, a bad migration, a format change without a compatibility path): reading it
 * throws a StoredDataError naming the table, the row, the column and the path inside the document,
 * which the HTTP layer logs and answers with a 500. Derived data (the decisions cache) is rebuilt
 * instead by its caller.
 *
 * | table            | column    | schema                                       |
 * |------------------|-----------|----------------------------------------------|
 * | copy_versions    | copy      | ZCopy                                        |
 * | policy_versions  | policy    | ZPolicy                                      |
 * | run_decisions    | summary   | ZRunSummaryColumn (ZDecisionsSummary + the run's policy and copy) |
 * | replay_jobs      | filters   | ZReplayFilters                               |
 * | replay_jobs      | result    | ZReplayResult (older formats read as "start it again") |
 * | events           | body      | ZEvent, with the row's event_id, type, ts and turn around it |
 * | reviewer_rows    | row (JSON text) | ZStoredReviewerRow (ZReviewerCandidateRow without the run's columns) |
 */
export class StoredDataError extends Error {
  override readonly name = "StoredDataError";

  constructor(
    readonly table: string,
    readonly rowId: string,
    readonly column: string,
    readonly problems: TProblem[],
  ) {
    super(
      `stored ${table}.${column} of row ${JSON.stringify(rowId)} does not match its schema: ` +
        problems.map((p) => `${p.path === "" ? "(the document)" : p.path}: ${p.message}`).join("; "),
    );
  }
}

/** The stored document parsed with its schema, or a StoredDataError naming where it breaks it. */
function parseStored<S extends z.ZodType>(schema: S, table: string, column: string, rowId: string, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new StoredDataError(table, rowId, column, problemsFrom(parsed.error));
}

/**
 * A contract-typed value for a Json column. Values typed by the zod contracts are JSON by
 * construction; TypeScript only lacks the index signature Prisma's input type asks for.
 */
export function jsonColumn(value: TCopy | TPolicy | TRunSummaryColumn | TReplayFilters | TReplayResult): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

export function copyColumn(row: { id: string; copy: unknown }): TCopy {
  return parseStored(ZCopy, "copy_versions", "copy", row.id, row.copy);
}

export function policyColumn(row: { id: string; policy: unknown }): TPolicy {
  return parseStored(ZPolicy, "policy_versions", "policy", row.id, row.policy);
}

/** What run_decisions.summary holds: the decisions' counts and the policy and copy the run started with. */
/** The decisions' summary, the run's policy and copy, and what runs out next at its recent pace (absent in rows stored before it). */
export const ZRunSummaryColumn = ZDecisionsSummary.extend({
  policy: ZPolicy,
  copy: ZCopy.nullable(),
  projection: ZRunProjection.nullable().optional(),
  /** How far off the projection was at each stage and limit reached (absent in rows stored before it). */
  projectionCheck: ZRunProjectionCheck.optional(),
  /** The run's follow-up and fatigue counts summed over its trend buckets (lib/trends/effect-keys.ts); absent in rows stored before. */
  effectCounts: z.record(z.string(), z.number()).optional(),
});
export type TRunSummaryColumn = z.infer<typeof ZRunSummaryColumn>;

export function runSummaryColumn(row: { runPk: string; summary: unknown }): TRunSummaryColumn {
  return parseStored(ZRunSummaryColumn, "run_decisions", "summary", row.runPk, row.summary);
}

export function replayFiltersColumn(row: { id: string; filters: unknown }): TReplayFilters {
  return parseStored(ZReplayFilters, "replay_jobs", "filters", row.id, row.filters ?? {});
}

/**
 * A replay job's stored result: null while there is none, `"older format"` for a result written
 * before the current shape of the follow-up groups or of the changed turns' `fate` (those jobs are
 * started again, not migrated), else the result parsed with ZReplayResult. A running job has no
 * result yet, so polling costs nothing; a finished one is read once per page view (the client
 * stops polling), and parsing costs less than sending it (about 2 s for the largest possible
 * result, 5000 runs of 200 listed turns, 73 MB; about 0.2 s for the default 500 runs).
 */
export function replayResultColumn(row: { id: string; result: unknown }): TReplayResult | null | "older format" {
  if (row.result === null || row.result === undefined) return null;
  if (typeof row.result !== "object" || Array.isArray(row.result))
    return parseStored(ZReplayResult, "replay_jobs", "result", row.id, row.result);
  const stored = row.result as { followUp?: unknown; changedRuns?: unknown };
  const changedRuns = Array.isArray(stored.changedRuns) ? stored.changedRuns.slice(0, 1) : stored.changedRuns;
  const current =
    ZReplayResult.shape.followUp.safeParse(stored.followUp).success && ZReplayResult.shape.changedRuns.safeParse(changedRuns).success;
  if (!current) return "older format";
  return parseStored(ZReplayResult, "replay_jobs", "result", row.id, row.result);
}

/** An events row read with its body still JSON text (parsed where the work is done: a job thread). */
export type StoredEventRow = Omit<EventRow, "body"> & { body: string };

/** A stored row whose body is text, read back as its event (the body parsed, then `eventColumns`). */
export function storedEvent(row: StoredEventRow, runId: string): TEvent {
  return eventColumns({ ...row, body: JSON.parse(row.body) }, runId);
}

/** The columns of an events row that make up the event (run_pk, at, content_hash and received_at aside). */
export interface EventRow {
  /** The row's arrival sequence (its primary key), as text. */
  seq: string;
  eventId: string;
  type: string;
  ts: string;
  turn: number | null;
  body: unknown;
}

/**
 * A stored event row read back as the event it was stored from: its envelope (event_id, type, ts,
 * turn, and the run's id) around its body, parsed with ZEvent, the schema ingestion checked it
 * with. A row that no longer parses names the columns at fault (`body`, or `type` when the body
 * belongs to no known type) and the paths inside the event (`body.used`).
 */
export function eventColumns(row: EventRow, runId: string): TEvent {
  const event: Record<string, unknown> = { id: row.eventId, runId, type: row.type, ts: row.ts, body: row.body };
  if (row.turn !== null) event.turn = row.turn;
  const parsed = ZEvent.safeParse(event);
  if (parsed.success) return parsed.data;
  const problems = problemsFrom(parsed.error);
  const columns = [...new Set(problems.map((p) => columnOfField(p.path.split(/[.[]/)[0])))];
  throw new StoredDataError("events", row.seq, columns.join(", "), problems);
}

/** The events column an event's field is stored in; a problem at the event's root (no known type) is its type's. */
function columnOfField(field: string): string {
  return field === "" ? "type" : field === "id" ? "event_id" : field;
}

/** What reviewer_rows.row holds: a Reviewer row without the run's own columns (read from the run). */
export const ZStoredReviewerRow = ZReviewerCandidateRow.omit({ runId: true, task: true, agent: true, model: true });
export type TStoredReviewerRow = z.infer<typeof ZStoredReviewerRow>;

/** A stored Reviewer row (JSON text) read back; its id in errors is `<run_pk>/<ordinal>`. */
export function reviewerRowColumn(row: { runPk: string; ordinal: number; row: string }): TStoredReviewerRow {
  const id = `${row.runPk}/${row.ordinal}`;
  let value: unknown;
  try {
    value = JSON.parse(row.row);
  } catch (error) {
    throw new StoredDataError("reviewer_rows", id, "row", [{ path: "", message: `not JSON: ${(error as Error).message}` }]);
  }
  return parseStored(ZStoredReviewerRow, "reviewer_rows", "row", id, value);
}
