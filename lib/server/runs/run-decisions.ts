import type { TRunDecisions } from "@/lib/contracts";
import { rebuild, RunInputError, summarizeDecisions } from "@/lib/core";
import { reviewerAudit } from "@/lib/reviewer/audit";
import type { Database } from "@/lib/server/db";
import { storeRunAudit } from "@/lib/server/reviewer/store-audit";
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
  const cached = await db.prisma.runDecisionsCache.findUnique({ where: { runPk: run.id } });
  if (cached && cached.eventCount === run.eventCount) {
    const summary = storedSummary(cached);
    if (summary) return { ok: true, json: cached.decisions, summary };
  }
  return rebuildAndCache(db, run);
}

/** Cached summaries only (for lists): no decisions are read. Stale or missing entries are rebuilt. */
export async function getRunSummaries(db: Database, runs: readonly RunRow[]): Promise<Map<string, RunSummaryResult>> {
  const cached = await db.prisma.runDecisionsCache.findMany({
    where: { runPk: { in: runs.map((r) => r.id) } },
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

/**
 * Rebuilds the run from its stored events and stores what the rebuild derives, in one transaction:
 * the decisions with their summary (run_decisions) and the run's Reviewer audit (reviewer_rows,
 * run_reviewer_funnels). Everything is computed first, purely (the core's rebuild, reviewerAudit);
 * the transaction only writes.
 */
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
  const audit = reviewerAudit(events, decisions);
  const json = JSON.stringify(decisions);
  const data = {
    eventCount: events.length,
    decisions: json,
    summary: jsonColumn(summary),
    builtAt: new Date(),
  };
  await db.prisma.$transaction(
    async (tx) => {
      await tx.runDecisionsCache.upsert({ where: { runPk: run.id }, create: { runPk: run.id, ...data }, update: data });
      await storeRunAudit(tx, { id: run.id, projectId: run.projectId, eventCount: events.length }, audit);
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
  return { ok: true, json, summary };
}

/**
 * Rebuilds (and stores) every run of the project whose stored decisions are missing or stale: for
 * the CLIs that load runs directly into the database, and for tests that read the stored Reviewer
 * audit after ingesting. Runs that cannot be rebuilt yet (no run.started) are left as they are.
 */
export async function rebuildStaleRuns(db: Database, projectId: string): Promise<number> {
  const runs = await db.prisma.run.findMany({ where: { projectId }, orderBy: { id: "asc" } });
  const cached = await db.prisma.runDecisionsCache.findMany({
    where: { runPk: { in: runs.map((r) => r.id) } },
    select: { runPk: true, eventCount: true },
  });
  const built = new Map(cached.map((c) => [c.runPk, c.eventCount]));
  let rebuilt = 0;
  for (const run of runs) {
    if (built.get(run.id) === run.eventCount) continue;
    if ((await rebuildAndCache(db, run)).ok) rebuilt++;
  }
  return rebuilt;
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
