import { LRUCache } from "lru-cache";
import type { Database } from "@/lib/server/db";
import type { StoredTrendBuckets } from "@/lib/server/trends/store-buckets";

/**
 * What a resume of a live run needs from the rebuild before it, kept in this process after the
 * rebuild stored it, so the next resume reads only what arrived since instead of the whole run
 * again (lib/server/rebuild/rebuild-run.ts): the stored chunk texts, the Reviewer lane's event rows
 * (as JSON texts), each turn's time, and the stored Reviewer rows and trend buckets (so the next
 * store writes only those that changed).
 *
 * It belongs to one stored rebuild: `eventCount` and `maxSeq` are that rebuild's, and a resume uses
 * it only while the run's row still holds that rebuild (another process, a full rebuild, a resume
 * elsewhere: the pair changes, the state is not used). Rebuilds are deterministic, so two rebuilds
 * of the same events and version store the same chunks, rows and buckets.
 */
export interface ResumeState {
  eventCount: number;
  maxSeq: string;
  /** The stored chunks' texts, in chunk order, and the stored findings (JSON text). */
  chunkTexts: readonly string[];
  findingsJson: string;
  /** The run's events of the types the Reviewer audit, the timeline and the trends read, up to `maxSeq`, as JSON texts of arrays of rows. */
  reviewerRowTexts: readonly string[];
  /** Each turn's earliest event's time up to `maxSeq`, as [turn, ms], by turn. */
  turnTimes: readonly (readonly [number, number])[];
  /** The stored Reviewer rows' texts, by ordinal. */
  auditRowTexts: readonly string[];
  /** The stored trend buckets. */
  buckets: StoredTrendBuckets;
}

/** At most this many characters of resume state are kept per database (the least recently resumed runs go first). */
export const RESUME_STATE_CHARS = 100_000_000;

const caches = new WeakMap<Database, LRUCache<string, ResumeState>>();

function cacheOf(db: Database): LRUCache<string, ResumeState> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache<string, ResumeState>({ maxSize: RESUME_STATE_CHARS, sizeCalculation: sizeOf });
    caches.set(db, cache);
  }
  return cache;
}

function keyOf(run: { projectId: string; id: string }): string {
  return `${run.projectId}\u0000${run.id}`;
}

/** Roughly its characters: what it holds in memory. */
function sizeOf(state: ResumeState): number {
  let chars = 0;
  for (const text of state.chunkTexts) chars += text.length;
  chars += state.findingsJson.length;
  for (const text of state.reviewerRowTexts) chars += text.length;
  for (const text of state.auditRowTexts) chars += text.length;
  for (const text of state.buckets.counts.values()) chars += text.length + 16;
  return Math.max(1, chars + state.turnTimes.length * 16);
}

/** The state kept for the run's stored rebuild of (`eventCount`, `maxSeq`), if this process has it. */
export function resumeStateOf(
  db: Database,
  run: { projectId: string; id: string },
  stored: { eventCount: number; maxSeq: string },
): ResumeState | null {
  const state = cacheOf(db).get(keyOf(run));
  return state && state.eventCount === stored.eventCount && state.maxSeq === stored.maxSeq ? state : null;
}

/** Keeps `state` for the run's next resume (null: forgets what was kept). */
export function keepResumeState(db: Database, run: { projectId: string; id: string }, state: ResumeState | null): void {
  if (state && sizeOf(state) <= RESUME_STATE_CHARS / 2) cacheOf(db).set(keyOf(run), state);
  else cacheOf(db).delete(keyOf(run));
}
