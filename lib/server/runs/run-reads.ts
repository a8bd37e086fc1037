import "server-only";
import type { TEventsQuery, TEventsResponse, TFinding, TRunDecisions, TRunSummary, TTurnDecision, TTurnDetail } from "@/lib/contracts";
import { inRunOrder } from "@/lib/core";
import type { Database } from "@/lib/server/db";
import { eventColumns } from "@/lib/server/db/json-columns";
import { env } from "@/lib/server/env";
import { DomainError } from "@/lib/server/errors";
import { findRun, type RunRow } from "./find-run";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { checkedHead, getRunDecisions, getRunSummaries } from "./run-decisions";
import { readTurnChunk } from "./stored-decisions";
import { toRunSummary } from "./run-dto";

/** `GET /api/v1/runs/:runId`: the run's header and counts. */
export async function getRunSummary(db: Database, projectId: string, runId: string): Promise<TRunSummary> {
  const run = await findRun(db, projectId, runId);
  // The stored summary only: a live run's page polls this, and its decisions may be tens of MB.
  return toRunSummary(run, (await getRunSummaries(db, projectId, [run])).get(run.id)!);
}

/**
 * The core's RunDecisions as stored JSON text (served as is). This is the one read that asks for
 * the decisions of every event stored when it was made: while the run's background rebuild is
 * behind, it waits for it (without rebuilding anything itself) up to CUESCOPE_DECISIONS_WAIT_MS,
 * then answers with the last rebuild and says how many events it does not include yet.
 */
export async function getDecisionsJson(db: Database, projectId: string, runId: string): Promise<{ json: string; staleEvents: number }> {
  const run = await findRun(db, projectId, runId);
  let result = await getRunDecisions(db, run);
  if (result.pending || result.staleEvents > 0) {
    // Waits by reading the stored rebuild's event count only, then reads the decisions once.
    const deadline = Date.now() + env("CUESCOPE_DECISIONS_WAIT_MS");
    while (Date.now() < deadline && (await builtEventCount(db, run)) < run.eventCount) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    result = await getRunDecisions(db, run);
  }
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  return { json: result.json, staleEvents: result.staleEvents };
}

async function builtEventCount(db: Database, run: RunRow): Promise<number> {
  const stored = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    select: { eventCount: true },
  });
  return stored?.eventCount ?? -1;
}

/** `GET /api/v1/runs/:runId/decisions`, parsed. */
export async function getDecisions(db: Database, projectId: string, runId: string): Promise<TRunDecisions> {
  return JSON.parse((await getDecisionsJson(db, projectId, runId)).json) as TRunDecisions;
}

/** `GET /api/v1/runs/:runId/events`: stored events in arrival order, paged by arrival sequence. */
export async function listRunEvents(db: Database, projectId: string, runId: string, query: TEventsQuery): Promise<TEventsResponse> {
  const run = await findRun(db, projectId, runId);
  const rows = await db.prisma.event.findMany({
    where: {
      projectId,
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
      event: eventColumns({ ...row, seq: row.seq.toString() }, run.runId),
    })),
    nextCursor: rows.length > query.limit ? page.at(-1)!.seq.toString() : null,
  };
}

/**
 * `GET /api/v1/runs/:runId/turns/:turn`: the rebuilt decision, findings and events of one turn. It
 * reads the one stored chunk whose turn range holds the turn and the findings (readTurnChunk), never
 * the whole run's decisions: the neighbouring turns with events come from that chunk, the bounds of
 * the chunks either side and the skipped turns among the findings (INCOMPLETE_TURN).
 */
export async function getTurnDetail(db: Database, projectId: string, runId: string, turn: number): Promise<TTurnDetail> {
  const run = await findRun(db, projectId, runId);
  const [stored, rows] = await Promise.all([
    readTurnChunk(db, run, turn),
    db.prisma.event.findMany({ where: { projectId, runPk: run.id, turn }, orderBy: { seq: "asc" } }),
  ]);
  const result = checkedHead(run, stored?.head ?? null);
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  const findings = parsedFindings(result.version, result.findings);
  const turns = stored!.holding === null ? [] : (JSON.parse(stored!.holding) as TTurnDecision[]);
  // Turns that have events: the rebuilt ones and the skipped ones (INCOMPLETE_TURN).
  let previousTurn = stored!.before;
  let nextTurn = stored!.after;
  let exists = false;
  const seen = (t: number) => {
    if (t < turn) previousTurn = previousTurn === null ? t : Math.max(previousTurn, t);
    else if (t > turn) nextTurn = nextTurn === null ? t : Math.min(nextTurn, t);
    else exists = true;
  };
  for (const t of turns) seen(t.turn);
  for (const f of findings) if (f.code === "INCOMPLETE_TURN" && f.turn !== null) seen(f.turn);
  return {
    runId,
    turn,
    decision: turns.find((t) => t.turn === turn) ?? null,
    exists,
    findings: findings.filter((f) => f.turn === turn),
    events: inRunOrder(
      rows
        .filter((r) => r.type !== "run.started" && r.type !== "run.ended")
        .map((r) => eventColumns({ ...r, seq: r.seq.toString() }, run.runId)),
    ),
    previousTurn,
    nextTurn,
  };
}

/** A stored rebuild's findings, parsed once per stored rebuild (a run's findings are few: tens of kB). */
function parsedFindings(version: string, json: string): TFinding[] {
  let hit = findingsCache.get(version);
  if (!hit) findingsCache.set(version, (hit = { findings: JSON.parse(json) as TFinding[], bytes: jsonTextBytes(json.length) }));
  return hit.findings;
}

const findingsCache = runCache<{ findings: TFinding[]; bytes: number }>({ sizeOf: (entry) => entry.bytes });
