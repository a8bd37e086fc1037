import type { TRunDecisions } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { runSummaryColumn, StoredDataError, type TRunSummaryColumn } from "@/lib/server/db/json-columns";
import { wantRebuild } from "@/lib/server/jobs/wanted";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import type { RunRow } from "./find-run";

/** The decisions' counts and the policy and copy the run started with (stored as run_decisions.summary). */
export type CachedSummary = TRunSummaryColumn;

/**
 * How far a run's stored rebuild is behind its events: `staleEvents` stored events are not in it
 * yet (a background rebuild is on its way); `pending` when the run was never rebuilt at all.
 */
export interface Freshness {
  staleEvents: number;
  pending: boolean;
}

/** The decisions as the JSON text that is stored and served (parse it only where it is read). */
export type RunDecisionsResult = ({ ok: true; json: string; summary: CachedSummary } | { ok: false; error: string }) & Freshness;

export type RunSummaryResult = ({ ok: true; summary: CachedSummary } | { ok: false; error: string }) & Freshness;

export const NOT_YET_REBUILT = "the run has not been rebuilt yet: its rebuild is queued";

/**
 * The run's last stored rebuild (lib/server/jobs/rebuild-run.ts), as it is: reads never rebuild. A
 * stale or missing one asks for a rebuild in the background and is served marked with how many
 * events it does not include yet.
 */
export async function getRunDecisions(db: Database, run: RunRow): Promise<RunDecisionsResult> {
  const stored = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    select: { runPk: true, eventCount: true, decisions: true, summary: true, error: true },
  });
  if (!stored || stored.decisions === null) return { ok: false, error: stored?.error ?? NOT_YET_REBUILT, ...freshnessOf(run, stored) };
  const summary = storedSummary(run, stored);
  if (!summary) return { ok: false, error: NOT_YET_REBUILT, ...freshnessOf(run, null) };
  return { ok: true, json: stored.decisions, summary, ...freshnessOf(run, stored) };
}

/** Stored summaries only (for lists): no decisions are read. */
export async function getRunSummaries(db: Database, projectId: string, runs: readonly RunRow[]): Promise<Map<string, RunSummaryResult>> {
  const cached = await db.prisma.runDecisionsCache.findMany({
    where: { projectId, runPk: { in: runs.map((r) => r.id) } },
    select: { runPk: true, eventCount: true, summary: true, error: true },
  });
  const byRun = new Map(cached.map((c) => [c.runPk, c]));
  const results = new Map<string, RunSummaryResult>();
  for (const run of runs) {
    const hit = byRun.get(run.id);
    const summary = hit && hit.summary !== null ? storedSummary(run, hit) : null;
    if (summary) results.set(run.id, { ok: true, summary, ...freshnessOf(run, hit) });
    else if (hit?.error) results.set(run.id, { ok: false, error: hit.error, ...freshnessOf(run, hit) });
    else results.set(run.id, { ok: false, error: NOT_YET_REBUILT, ...freshnessOf(run, null) });
  }
  return results;
}

/** Compares the stored rebuild with the run's event count; asks for a rebuild when it is behind. */
function freshnessOf(run: RunRow, stored: { eventCount: number } | null | undefined): Freshness {
  const staleEvents = Math.max(0, run.eventCount - (stored?.eventCount ?? 0));
  if (!stored || staleEvents > 0) wantRebuild(run.projectId, [run.id]);
  return { staleEvents, pending: !stored };
}

/**
 * A stored summary, or null when it no longer parses: it is derived data, so it is logged, the
 * read treats the run as not rebuilt yet, and a rebuild is asked for, rather than failing the read.
 */
function storedSummary(run: RunRow, row: { runPk: string; summary: unknown }): CachedSummary | null {
  try {
    return runSummaryColumn(row);
  } catch (error) {
    if (!(error instanceof StoredDataError)) throw error;
    console.warn(`[cuescope] ${error.message}; the run will be rebuilt`);
    wantRebuild(run.projectId, [run.id]);
    return null;
  }
}

/** A run's parsed decisions and the estimated bytes they take (from their JSON text's length). */
interface ParsedDecisions {
  decisions: TRunDecisions;
  bytes: number;
}

const parsed = runCache<ParsedDecisions>({ sizeOf: (entry) => entry.bytes });

/**
 * The run's stored decisions as objects, kept per stored rebuild (its run and event count) for the
 * readers that walk them (turn inspector, timeline, replay), bounded by their estimated size in
 * bytes. Read-only: callers must not change them.
 */
export async function getParsedRunDecisions(
  db: Database,
  run: RunRow,
): Promise<({ ok: true } & ParsedDecisions & Freshness) | ({ ok: false; error: string } & Freshness)> {
  const version = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    select: { eventCount: true, maxSeq: true },
  });
  const key = version ? `${run.id}:${version.eventCount}:${version.maxSeq}` : "";
  const hit = version ? parsed.get(key) : undefined;
  if (hit) return { ok: true, ...hit, ...freshnessOf(run, version) };
  const result = await getRunDecisions(db, run);
  if (!result.ok) return result;
  const entry = { decisions: JSON.parse(result.json) as TRunDecisions, bytes: jsonTextBytes(result.json.length) };
  if (version) parsed.set(key, entry);
  return { ok: true, ...entry, staleEvents: result.staleEvents, pending: result.pending };
}
