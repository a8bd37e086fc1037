import "server-only";
import { ZRunTimeline, type TRunDecisions, type TRunTimeline, type TTimelineQuery, type TTurnDecision } from "@/lib/contracts";
import { buildTimeline, DEFAULT_MAX_POINTS, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import type { Database } from "@/lib/server/db";
import { DomainError } from "@/lib/server/errors";
import { jsonTextBytes, runCache } from "@/lib/server/lru";
import { keepJsonText } from "@/lib/server/json-text";
import { eventLoopTurn } from "@/lib/server/event-loop-turn";
import { wantRebuild } from "@/lib/server/jobs/wanted";
import { findRun, type RunRow } from "./find-run";
import { checkedHead } from "./run-decisions";
import { readWindowChunks } from "./stored-decisions";
import { loadRunEventsOfTypes } from "./run-events";
import { loadWindowTimelineEvents } from "./timeline-events";

/**
 * `GET /api/v1/runs/:runId/timeline`: what the run page draws — meter series in their units,
 * thresholds, reminder statuses, lanes and markers — trimmed and downsampled on the server, so a
 * long run's page does not download its whole decisions.
 */
export async function getRunTimeline(db: Database, projectId: string, runId: string, query: TTimelineQuery): Promise<TRunTimeline> {
  const run = await findRun(db, projectId, runId);
  if (isWholeRun(query)) {
    const stored = await storedWholeTimeline(db, run);
    if (stored) return stored;
  }
  // Only the stored chunks whose turns overlap the window are read and parsed, with the findings
  // and the whole run's turn range; a query without a window (another point budget) reads them all.
  const stored = await readWindowChunks(db, run, query.from ?? Number.NEGATIVE_INFINITY, query.to ?? Number.POSITIVE_INFINITY);
  const result = checkedHead(run, stored?.head ?? null);
  if (!result.ok) throw new DomainError("conflict", `the run's decisions cannot be rebuilt: ${result.error}`);
  // Built timelines are kept per run version (its event count: the lanes read its events) and
  // stored rebuild, and window: a live run's page polls the same window, and a long run's timeline
  // costs far more to build than to send.
  const key = `${result.version}:${run.eventCount}:${query.from ?? ""}:${query.to ?? ""}:${query.maxPoints ?? ""}`;
  const built = recent.get(key);
  if (built) return built;
  const decisions: TRunDecisions = { runId: run.runId, turns: [], findings: JSON.parse(result.findings) as TRunDecisions["findings"] };
  // One chunk (a few hundred kB) parsed per tick: a query without a window parses every chunk.
  for (const text of stored!.chunkTexts) {
    if (decisions.turns.length > 0) await eventLoopTurn();
    for (const turn of JSON.parse(text) as TTurnDecision[]) decisions.turns.push(turn);
  }
  // A window reads only the events it needs (the window's, the run.started, the Reviewer chains that
  // touch or span it), however long the run; a query without a window reads the run's timeline events.
  const events = isWindow(query)
    ? (
        await loadWindowTimelineEvents(db, run, {
          from: query.from ?? 0,
          to: query.to ?? Number.POSITIVE_INFINITY,
          end: stored!.runTurnRange?.[1] ?? 0,
          maxSeq: stored!.head.maxSeq,
          stale: run.eventCount !== stored!.head.eventCount,
          reviewerSpans: stored!.reviewerSpans,
        })
      ).events
    : await loadRunEventsOfTypes(db, run, TIMELINE_EVENT_TYPES);
  const timeline = buildTimeline(decisions, events, {
    maxPoints: query.maxPoints,
    fromTurn: query.from,
    toTurn: query.to,
    runTurnRange: stored!.runTurnRange,
  });
  recent.set(key, timeline);
  return timeline;
}

/** A zoom: a window of turns (either end may be open), whose events are read by their turns. */
function isWindow(query: TTimelineQuery): boolean {
  return query.from !== undefined || query.to !== undefined;
}

/** The run page's first chart: the whole run at the default number of points. */
function isWholeRun(query: TTimelineQuery): boolean {
  return query.from === undefined && query.to === undefined && (query.maxPoints === undefined || query.maxPoints === DEFAULT_MAX_POINTS);
}

/**
 * The whole run's timeline as its last rebuild stored it (lib/server/rebuild/rebuild-run.ts): one row
 * read and a few hundred kB parsed however long the run, so a long run's first chart costs what a
 * short one's does. Null when the stored rebuild has none (it failed, or predates stored timelines).
 */
async function storedWholeTimeline(db: Database, run: RunRow): Promise<TRunTimeline | null> {
  const where = { projectId_runPk: { projectId: run.projectId, runPk: run.id } };
  // Which rebuild is stored first (two numbers), its timeline's text only when that one is not kept
  // already: every reader of a run's page asks for it, and the text is a few hundred kB.
  const head = await db.prisma.runDecisionsCache.findUnique({ where, select: { eventCount: true, maxSeq: true } });
  if (!head) return null;
  if (head.eventCount < run.eventCount) wantRebuild(run.projectId, [run.id]);
  const hit = recent.get(storedKey(run, head));
  if (hit) return hit;
  // Read with its own version: a rebuild may have stored a newer one since.
  const stored = await db.prisma.runDecisionsCache.findUnique({ where, select: { eventCount: true, maxSeq: true, timeline: true } });
  if (!stored?.timeline) return null;
  // Derived data, read back through its contract: one that no longer parses is rebuilt, not served.
  const parsed = ZRunTimeline.safeParse(JSON.parse(stored.timeline));
  if (!parsed.success) {
    console.warn(`[cuescope] the stored timeline of run ${JSON.stringify(run.runId)} does not match its schema; the run will be rebuilt`);
    wantRebuild(run.projectId, [run.id]);
    return null;
  }
  recent.set(storedKey(run, stored), parsed.data);
  return parsed.data;
}

/** The cache key of a run's stored whole timeline: the rebuild that stored it. */
const storedKey = (run: RunRow, head: { eventCount: number; maxSeq: bigint }) => `${run.id}:stored:${head.eventCount}:${head.maxSeq}`;

// Each kept timeline keeps its JSON text too (sent as is on a hit): the object and the text, each
// about as large as the text.
const recent = runCache<TRunTimeline>({ sizeOf: (timeline) => 2 * jsonTextBytes(keepJsonText(timeline).length) });
