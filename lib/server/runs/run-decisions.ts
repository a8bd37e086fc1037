import type { TRunDecisions, TTurnDecision } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { runSummaryColumn, StoredDataError, type TRunSummaryColumn } from "@/lib/server/db/json-columns";
import { eventLoopTurn } from "@/lib/server/event-loop-turn";
import { wantRebuild } from "@/lib/server/jobs/wanted";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { decisionsJsonOf } from "./decision-chunks";
import type { RunRow } from "./find-run";
import {
  DecisionsChangedError,
  openWholeDecisions,
  readWholeDecisions,
  SUMMARY_WITHOUT_EFFECT_COUNTS,
  type StoredHead,
} from "./stored-decisions";
import { wholeReads, type WholeReads } from "./whole-reads";

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
 * The run's last stored rebuild (lib/server/rebuild/rebuild-run.ts), as it is: reads never rebuild. A
 * stale or missing one asks for a rebuild in the background and is served marked with how many
 * events it does not include yet. The JSON text is put together from the stored chunks' texts and
 * the findings' text, unparsed (decisionsJsonOf), read a page of chunks at a time as rows
 * (readWholeDecisions), so this costs in proportion to the run (for scripts and tests: the download
 * streams them, run-reads.ts); reads of one turn or a window read only their chunks (stored-decisions.ts).
 */
export async function getRunDecisions(db: Database, run: RunRow): Promise<RunDecisionsResult> {
  const result = await storedDecisions(db, run);
  if (!result.ok) return result;
  return { ok: true, json: result.json, summary: result.summary, staleEvents: result.staleEvents, pending: result.pending };
}

/** getRunDecisions, with the stored rebuild's version (its event count and max seq) the text is of. */
async function storedDecisions(
  db: Database,
  run: RunRow,
): Promise<({ ok: true; json: string; summary: CachedSummary; version: string } | { ok: false; error: string }) & Freshness> {
  const stored = await readWholeDecisions(db, run);
  const checked = checkedHead(run, stored?.head ?? null);
  if (!checked.ok) return checked;
  return {
    ok: true,
    json: decisionsJsonOf(run.runId, stored!.chunkTexts, checked.findings),
    summary: checked.summary,
    version: checked.version,
    staleEvents: checked.staleEvents,
    pending: checked.pending,
  };
}

/**
 * A stored rebuild's row as the decisions' readers take it: its findings text, summary and version
 * (`${runPk}:${eventCount}:${maxSeq}`, a cache key) with its freshness; or why there are no
 * decisions (not rebuilt yet, its rebuild failed, its summary no longer parses).
 */
export function checkedHead(
  run: RunRow,
  head: StoredHead | null,
): ({ ok: true; findings: string; summary: CachedSummary; version: string } | { ok: false; error: string }) & Freshness {
  if (!head || head.findings === null) return { ok: false, error: head?.error ?? NOT_YET_REBUILT, ...freshnessOf(run, head) };
  const summary = storedSummary(run, head);
  if (!summary) return { ok: false, error: NOT_YET_REBUILT, ...freshnessOf(run, null) };
  return { ok: true, findings: head.findings, summary, version: `${run.id}:${head.eventCount}:${head.maxSeq}`, ...freshnessOf(run, head) };
}

/**
 * Stored summaries only (for lists and the run's header): no decisions are read, nor the summary's
 * follow-up and fatigue sums, which grow with the run (SUMMARY_WITHOUT_EFFECT_COUNTS).
 */
export async function getRunSummaries(db: Database, projectId: string, runs: readonly RunRow[]): Promise<Map<string, RunSummaryResult>> {
  const rows = await db.prisma.$queryRawUnsafe<{ runPk: string; eventCount: number; summary: string | null; error: string | null }[]>(
    `SELECT d."run_pk" AS "runPk", d."event_count" AS "eventCount", ${SUMMARY_WITHOUT_EFFECT_COUNTS}::text AS "summary", d."error"
       FROM "run_decisions" d WHERE d."project_id" = $1 AND d."run_pk" = ANY($2::text[])`,
    projectId,
    runs.map((r) => r.id),
  );
  const cached = rows.map((row) => ({ ...row, summary: row.summary === null ? null : (JSON.parse(row.summary) as unknown) }));
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
  /**
   * The stored rebuild these decisions are of (`${runPk}:${eventCount}:${maxSeq}`), read with them
   * from the same row: a reader that caches what it derives from them keys on it, and reads the
   * events up to `maxSeq`, so what it pairs with them is of the same stored rebuild.
   */
  version: string;
  maxSeq: string;
}

const parsed = runCache<ParsedDecisions>({ sizeOf: (entry) => entry.bytes });

/**
 * The run's whole stored decisions as objects, kept per stored rebuild (its run, event count and
 * max seq), bounded by their estimated size in bytes, for the readers that walk a whole run (the
 * replay's turn view). Costs in proportion to the run on a miss: the turn inspector and the zoomed
 * timeline read only the chunks they need instead. A miss reads under one of the project's
 * whole-run read permits (whole-reads.ts: beyond them, 503), a page of chunks at a time, and parses
 * one chunk per tick, so no tick parses more than a chunk. Read-only: callers must not change them.
 */
export async function getParsedRunDecisions(
  db: Database,
  run: RunRow,
  reads: WholeReads = wholeReads(),
): Promise<({ ok: true } & ParsedDecisions & Freshness) | ({ ok: false; error: string } & Freshness)> {
  const version = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    select: { eventCount: true, maxSeq: true },
  });
  const hit = version ? parsed.get(`${run.id}:${version.eventCount}:${version.maxSeq}`) : undefined;
  if (hit) return { ok: true, ...hit, ...freshnessOf(run, version) };
  return reads.run(run.projectId, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await parseWholeDecisions(db, run);
      } catch (error) {
        if (!(error instanceof DecisionsChangedError) || attempt >= 5) throw error;
      }
    }
  });
}

async function parseWholeDecisions(
  db: Database,
  run: RunRow,
): Promise<({ ok: true } & ParsedDecisions & Freshness) | ({ ok: false; error: string } & Freshness)> {
  const cursor = await openWholeDecisions(db, run);
  const first = checkedHead(run, cursor?.first ?? null);
  if (!first.ok) return first;
  const turns: TTurnDecision[] = [];
  let chars = 0;
  for (let texts; (texts = await cursor!.next());) {
    for (const text of texts) {
      await eventLoopTurn(); // one chunk (a few hundred kB) per tick
      for (const turn of JSON.parse(text) as TTurnDecision[]) turns.push(turn);
      chars += text.length;
    }
  }
  const result = checkedHead(run, cursor!.last());
  if (!result.ok) return result;
  const entry = {
    decisions: { runId: run.runId, turns, findings: JSON.parse(result.findings) as TRunDecisions["findings"] },
    bytes: jsonTextBytes(chars + result.findings.length),
    version: result.version,
    maxSeq: result.version.split(":").at(-1)!,
  };
  parsed.set(result.version, entry);
  return { ok: true, ...entry, staleEvents: result.staleEvents, pending: result.pending };
}
