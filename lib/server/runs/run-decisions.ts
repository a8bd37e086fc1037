import type { TRunDecisions } from "@/lib/contracts";
import { rebuild, RunInputError, summarizeDecisions } from "@/lib/core";
import type { Database } from "@/lib/server/db";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { jsonColumn, runSummaryColumn, StoredDataError, type TRunSummaryColumn } from "@/lib/server/db/json-columns";
import type { RunRow } from "./find-run";
import { loadRunEvents } from "./run-events";

/** The decisions' counts and the policy and copy the run started with (stored as run_decisions.summary). */
export type CachedSummary = TRunSummaryColumn;

/** The decisions as the JSON text that is stored and served (parse it only where it is read). */
export type RunDecisionsResult = { ok: true; json: string; summary: CachedSummary } | { ok: false; error: string };

export type RunSummaryResult = { ok: true; summary: CachedSummary } | { ok: false; error: string };

/**
 * The run's decisions, rebuilt by the core from its stored events and cached. The cache holds for
 * the event count it was built from: any new event of the run makes it stale.
 */
export async function getRunDecisions(db: Database, run: RunRow): Promise<RunDecisionsResult> {
  const cached = await db.prisma.runDecisionsCache.findUnique({ where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } } });
  if (cached && cached.eventCount === run.eventCount) {
    const summary = storedSummary(cached);
    if (summary) return { ok: true, json: cached.decisions, summary };
  }
  return rebuildAndCache(db, run);
}

/** Cached summaries only (for lists of a project's runs): no decisions are read. Stale or missing entries are rebuilt. */
export async function getRunSummaries(db: Database, projectId: string, runs: readonly RunRow[]): Promise<Map<string, RunSummaryResult>> {
  const cached = await db.prisma.runDecisionsCache.findMany({
    where: { projectId, runPk: { in: runs.map((r) => r.id) } },
    select: { runPk: true, eventCount: true, summary: true },
  });
  const byRun = new Map(cached.map((c) => [c.runPk, c]));
  const results = new Map<string, RunSummaryResult>();
  for (const run of runs) {
    const hit = byRun.get(run.id);
    const summary = hit && hit.eventCount === run.eventCount ? storedSummary(hit) : null;
    results.set(run.id, summary ? { ok: true, summary } : await rebuildAndCache(db, run));
  }
  return results;
}

/**
 * A cache entry's summary, or null when it no longer parses: the entry is derived data, so it is
 * logged and rebuilt rather than failing the read.
 */
function storedSummary(row: { runPk: string; summary: unknown }): CachedSummary | null {
  try {
    return runSummaryColumn(row);
  } catch (error) {
    if (!(error instanceof StoredDataError)) throw error;
    console.warn(`[cuescope] ${error.message}; rebuilding the run's decisions`);
    return null;
  }
}

async function rebuildAndCache(db: Database, run: RunRow): Promise<RunDecisionsResult> {
  if (run.task === null) return { ok: false, error: "waiting for the run's run.started event" };
  const events = await loadRunEvents(db, run);
  let decisions: TRunDecisions;
  try {
    decisions = rebuild(events);
  } catch (error) {
    if (error instanceof RunInputError) return { ok: false, error: error.message };
    throw error;
  }
  const started = events.find((e) => e.type === "run.started");
  const summary: CachedSummary = {
    ...summarizeDecisions(decisions),
    policy: started?.type === "run.started" ? started.body.policy : {},
    copy: started?.type === "run.started" ? (started.body.copy ?? null) : null,
  };
  const json = JSON.stringify(decisions);
  const data = {
    eventCount: events.length,
    decisions: json,
    summary: jsonColumn(summary),
    builtAt: new Date(),
  };
  const key = { projectId: run.projectId, runPk: run.id };
  await db.prisma.runDecisionsCache.upsert({ where: { projectId_runPk: key }, create: { ...key, ...data }, update: data });
  return { ok: true, json, summary };
}

/** A run's parsed decisions and the estimated bytes they take (from their JSON text's length). */
interface ParsedDecisions {
  decisions: TRunDecisions;
  bytes: number;
}

const parsed = runCache<ParsedDecisions>({ max: 8, sizeOf: (entry) => entry.bytes });

/**
 * The run's decisions as objects, kept per run version for the readers that walk them (turn
 * inspector, timeline, Reviewer audit, replay), with their estimated size in bytes. Read-only:
 * callers must not change them.
 */
export async function getParsedRunDecisions(
  db: Database,
  run: RunRow,
): Promise<({ ok: true } & ParsedDecisions) | { ok: false; error: string }> {
  const key = `${run.id}:${run.eventCount}`;
  const hit = parsed.get(key);
  if (hit) return { ok: true, ...hit };
  const result = await getRunDecisions(db, run);
  if (!result.ok) return result;
  const entry = { decisions: JSON.parse(result.json) as TRunDecisions, bytes: jsonTextBytes(result.json.length) };
  parsed.set(key, entry);
  return { ok: true, ...entry };
}
