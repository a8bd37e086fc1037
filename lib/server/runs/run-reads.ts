import type { TEventsQuery, TEventsResponse, TRunDecisions, TRunSummary } from "../../contracts";
import type { Database } from "../db";
import { DomainError } from "../errors";
import { findRun } from "./find-run";
import { getRunDecisions } from "./run-decisions";
import { toRunSummary } from "./run-dto";
import { toEvent } from "./run-events";

/** `GET /api/v1/runs/:runId`: the run's header and counts. */
export async function getRunSummary(db: Database, projectId: string, runId: string): Promise<TRunSummary> {
  const run = await findRun(db, projectId, runId);
  return toRunSummary(run, await getRunDecisions(db, run));
}

/** `GET /api/v1/runs/:runId/decisions`: the core's RunDecisions, from the cache when fresh. */
export async function getDecisions(db: Database, projectId: string, runId: string): Promise<TRunDecisions> {
  const run = await findRun(db, projectId, runId);
  const result = await getRunDecisions(db, run);
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  return result.decisions;
}

/** `GET /api/v1/runs/:runId/events`: stored events in arrival order, paged by arrival sequence. */
export async function listRunEvents(db: Database, projectId: string, runId: string, query: TEventsQuery): Promise<TEventsResponse> {
  const run = await findRun(db, projectId, runId);
  const rows = await db.prisma.event.findMany({
    where: {
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
      event: toEvent(row, run.runId) as unknown as Record<string, unknown>,
    })),
    nextCursor: rows.length > query.limit ? page.at(-1)!.seq.toString() : null,
  };
}
