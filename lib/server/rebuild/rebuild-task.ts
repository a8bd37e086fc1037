import { LRUCache } from "lru-cache";
import type { TEvent, TFinding, TPolicy, TReminderKey, TRunDecisions, TTriageCounts, TTurnDecision, TriageMark } from "@/lib/contracts";
import {
  actionsByTurn,
  RebuildCheckpointError,
  rebuild,
  rebuildWithCheckpoint,
  resumeRebuildTail,
  RunInputError,
  summarizeDecisions,
  type RebuildCheckpoint,
} from "@/lib/core";
import { duePolicyOf, experimentRunCounts } from "@/lib/derived/effectiveness/effectiveness";
import { buildTimeline, TIMELINE_EVENT_TYPES } from "@/lib/derived/timeline/build-timeline";
import { reviewerAudit } from "@/lib/derived/reviewer/audit";
import { longReviewerChains } from "@/lib/derived/reviewer/window-events";
import { bucketOfTurn, decisionDigests, type DecisionDigest } from "@/lib/derived/compare/decision-digests";
import { PROJECTION_TURNS, runProjection } from "@/lib/derived/projection/projection";
import { searchTermRows } from "@/lib/derived/search/search-terms";
import { projectionCheck } from "@/lib/derived/projection/projection-check";
import { runEffectCounts } from "@/lib/trends/effect-keys";
import { rewrittenFromTurn, triageCounts, triageMarks } from "@/lib/derived/triage";
import { copyVersionOf, policyVersionOf, trendBuckets, type TrendBucket, type TrendVersions } from "@/lib/trends/buckets";
import { StoredDataError, storedEvent, type StoredEventRow, type TRunSummaryColumn } from "@/lib/server/db/json-columns";
import { storedAudit, type StoredAudit } from "@/lib/server/reviewer/store-audit";
import { runListFigures, type RunListFigures } from "@/lib/server/runs/list-figures";
import { chunkOfIndex, chunksOf, DECISION_CHUNK_TURNS, type DecisionChunk } from "@/lib/server/runs/decision-chunks";
import type { StoredSearchTerms } from "@/lib/server/runs/search-terms";

export interface RebuildTaskInput {
  runId: string;
  /** Every stored event of the run (a full rebuild), or only those a resume needs (see `resume`). */
  rows: readonly StoredEventRow[];
  /**
   * Resume from the stored rebuild: its checkpoint, its turns as the stored chunk texts (every
   * chunk, in order) and its findings (JSON text), with `rows` holding the events of turns >= the
   * checkpoint's nextTurn and run.ended, and `reviewerRowTexts` the run's events of the types the
   * Reviewer audit reads (all turns).
   */
  resume?: {
    checkpoint: RebuildCheckpoint;
    chunkTexts: readonly string[];
    findingsJson: string;
    /** The Reviewer rows as JSON texts of arrays of rows, in seq order (cheap to hand to a thread). */
    reviewerRowTexts: readonly string[];
  };
  /** The events the result includes (a resume reads only some of them). */
  eventCount: number;
  /**
   * Each turn's time as [turn, ms since the epoch] (its earliest event's), for the trend buckets;
   * the same on a full rebuild and a resume. On a resume `resume.reviewerRowTexts` also hold every
   * `model.action` (the follow-up the buckets count reads them). Absent: no buckets.
   */
  turnTimes?: readonly (readonly [number, number])[];
  /**
   * The run names an experiment (runs.experiment_id): its counts are computed once the run has
   * ended (lib/derived/effectiveness/effectiveness.ts). `key`: the experiment's reminder key, null
   * when the experiment is not the project's. A holdout (the run's policy has `remind: false` on
   * the key) needs a second core rebuild of every event: a resume of an ended holdout run answers
   * "full rebuild needed".
   */
  experiment?: { key: TReminderKey | null };
}

/** A run's experiment counts (experiment_runs.counts): whether it has ended, and its counts (only `runs` while live). */
export interface ExperimentOutput {
  ended: boolean;
  counts: Record<string, number>;
}

/** The decisions as they are stored: the chunks that changed, how many there are now, and the findings. */
export interface StoredDecisionsOutput {
  /** The chunks from `fromChunk` on (a full rebuild: all; a resume: from the one holding its first changed turn). */
  chunks: DecisionChunk[];
  /** The first chunk written: the chunks before it are unchanged. */
  fromChunk: number;
  /** How many chunks the decisions have: stored chunks from this one on are gone. */
  chunkCount: number;
  findingsJson: string;
}

/**
 * The run's triage marks as stored (run_triage_marks): a full rebuild replaces them all
 * (`fromTurn` null), a resume those at `fromTurn` and later. The counts are the whole run's.
 */
export interface TriageOutput {
  fromTurn: number | null;
  marks: TriageMark[];
  counts: TTriageCounts;
}

/** What a rebuild stores: the decisions in chunks of JSON text, their summary, the Reviewer audit and the checkpoint; or why it failed. */
/** The rebuild's task, as it asks the job threads for it (lib/server/jobs/threads.ts). */
export type RebuildTasks = { rebuild: { input: RebuildTaskInput; output: RebuildTaskOutput | { ok: "full rebuild needed" } } };

export type RebuildTaskOutput =
  | {
      ok: true;
      decisions: StoredDecisionsOutput;
      summary: TRunSummaryColumn;
      audit: StoredAudit;
      /** The run's figures for the runs list (lib/server/runs/list-figures.ts). */
      listFigures: RunListFigures;
      triage: TriageOutput;
      /** The digests of the run's decisions per bucket of turn numbers (run comparison), from `fromBucket` on (all when null). */
      digests: { fromBucket: number | null; digests: DecisionDigest[] };
      /** The run's search index (docs/search.md), from `fromBucket` on (all when null). */
      search: StoredSearchTerms;
      /** The whole run's timeline (the run page's first chart) as JSON text. */
      timelineJson: string;
      /** The run's long Reviewer chains (lib/derived/reviewer/window-events.ts) as JSON text: a zoomed timeline's index. */
      reviewerSpansJson: string;
      /** The run's counts per 15-minute bucket (lib/trends/buckets.ts) and its copy and policy versions. */
      trends: { buckets: TrendBucket[] } & TrendVersions;
      /** The run's experiment counts, when the input named an experiment. */
      experiment: ExperimentOutput | null;
      checkpoint: RebuildCheckpoint | null;
      /** "resumed": from the stored checkpoint; "full": from every event. */
      mode: "full" | "resumed";
      eventCount: number;
    }
  | { ok: false; error: string; eventCount: number };

/**
 * The CPU part of a run's rebuild, pure and self-contained so it can run in a worker thread
 * (lib/server/jobs/threads.ts): stored rows → events (each read back through the event contract) →
 * the core's decisions (contract §6), resumed from the stored checkpoint when the job found one
 * that still holds (lib/core/resume.ts) → their chunks of JSON text (only those from the first
 * changed turn's on a resume), their summary, the run's Reviewer audit (lib/derived/reviewer/audit.ts), the
 * whole run's timeline (the run page's first chart, lib/derived/timeline) and the next checkpoint. A run
 * whose events cannot be rebuilt (no run.started, a second one) or whose stored rows no longer
 * parse answers why. A resume the core refuses (RebuildCheckpointError) answers "full rebuild
 * needed" so the job reads every event.
 *
 * On a resume the core takes only the new turns' events, but the summary, the audit and the
 * whole-run timeline are still computed over every turn: the stored chunks and the Reviewer-lane
 * events are taken parsed (parsedOnce: each text parsed once while this thread keeps it), and
 * those computations cost in proportion to the run, on this thread, off the request path.
 */
export function rebuildTask(input: RebuildTaskInput): RebuildTaskOutput | { ok: "full rebuild needed" } {
  try {
    const events = input.rows.map((row) => storedEvent(row, input.runId));
    let decisions: TRunDecisions;
    let checkpoint: RebuildCheckpoint | null;
    let fromChunk = 0;
    /** A resume's first turn whose search index bucket may change (null: a full rebuild). */
    let searchFromTurn: number | null = null;
    let auditEvents: TEvent[] = events;
    if (input.resume) {
      const { checkpoint: from, chunkTexts, findingsJson } = input.resume;
      const previous: TTurnDecision[] = [];
      for (const text of chunkTexts) for (const turn of parsedOnce(text, from.runId, parseTurns)) previous.push(turn);
      const kept = from.kept.turns;
      const storedLastTurn = previous.at(-1)?.turn ?? Infinity;
      try {
        const tail = resumeRebuildTail(
          {
            checkpoint: from,
            runId: input.runId,
            turns: { count: previous.length, lastKept: previous[kept - 1]?.turn ?? null, firstRedone: previous[kept]?.turn ?? null },
            findings: JSON.parse(findingsJson) as TFinding[],
          },
          events,
        );
        previous.length = Math.min(previous.length, kept);
        for (const turn of tail.turns) previous.push(turn);
        decisions = { runId: from.runId, turns: previous, findings: tail.findings };
        checkpoint = tail.checkpoint;
        fromChunk = chunkOfIndex(kept);
        // The stored last turn's bucket too: it held the run-level findings (docs/search.md).
        searchFromTurn = Math.min(rewrittenFromTurn(previous, fromChunk * DECISION_CHUNK_TURNS), from.nextTurn, storedLastTurn);
      } catch (error) {
        if (error instanceof RebuildCheckpointError) return { ok: "full rebuild needed" };
        throw error;
      }
      auditEvents = [];
      const parseEvents = (text: string) => (JSON.parse(text) as StoredEventRow[]).map((row) => storedEvent(row, input.runId));
      for (const text of input.resume.reviewerRowTexts)
        for (const event of parsedOnce(text, input.runId, parseEvents)) auditEvents.push(event);
    } else {
      ({ decisions, checkpoint } = rebuildWithCheckpoint(events));
    }
    const summary = summaryOf(decisions, input.resume ? input.resume.checkpoint : events);
    let experiment: ExperimentOutput | null = null;
    if (input.experiment) {
      const ended = events.find((e) => e.type === "run.ended");
      if (!ended || ended.type !== "run.ended") experiment = { ended: false, counts: { runs: 1 } };
      else {
        const key = input.experiment.key;
        const duePolicy = key === null ? null : duePolicyOf(summary.policy as TPolicy, key);
        // The holdout's due reminders: a rebuild of every event with the key's reminders on.
        if (duePolicy && input.resume) return { ok: "full rebuild needed" };
        experiment = {
          ended: true,
          counts: experimentRunCounts({
            decisions,
            actions: actionsByTurn(auditEvents),
            endedStatus: ended.body.status,
            experimentKey: key ?? undefined,
            dueDecisions: duePolicy ? rebuild(events, { policy: duePolicy }) : undefined,
          }),
        };
      }
    }
    const audit = reviewerAudit(auditEvents, decisions);
    const buckets = trendBuckets(decisions, auditEvents, new Map(input.turnTimes ?? []));
    // The run's follow-up and fatigue sums, so its panel reads one row (lib/server/trends/effectiveness.ts).
    summary.effectCounts = runEffectCounts(buckets);
    return {
      ok: true,
      decisions: {
        chunks: chunksOf(decisions.turns.slice(fromChunk * DECISION_CHUNK_TURNS), fromChunk),
        fromChunk,
        chunkCount: Math.ceil(decisions.turns.length / DECISION_CHUNK_TURNS),
        findingsJson: JSON.stringify(decisions.findings),
      },
      summary,
      audit: storedAudit(audit),
      listFigures: runListFigures(summary, audit),
      triage: triageOf(decisions, input.resume ? rewrittenFromTurn(decisions.turns, fromChunk * DECISION_CHUNK_TURNS) : null),
      digests: digestsOf(decisions.turns, input.resume ? rewrittenFromTurn(decisions.turns, fromChunk * DECISION_CHUNK_TURNS) : null),
      search: searchOf(decisions, auditEvents, searchFromTurn),
      trends: {
        buckets,
        copyVersion: copyVersionOf(summary.copy),
        policyVersion: policyVersionOf(summary.policy),
      },
      experiment,
      timelineJson: JSON.stringify(
        buildTimeline(
          decisions,
          auditEvents.filter((e) => TIMELINE_TYPES.has(e.type)),
        ),
      ),
      reviewerSpansJson: JSON.stringify(longReviewerChains(auditEvents, decisions.turns.at(-1)?.turn ?? 0)),
      checkpoint,
      mode: input.resume ? "resumed" : "full",
      eventCount: input.eventCount,
    };
  } catch (error) {
    if (error instanceof RunInputError || error instanceof StoredDataError)
      return { ok: false, error: error.message, eventCount: input.eventCount };
    throw error;
  }
}

/** At most this many characters of parsed texts are kept by a thread (parsedOnce). */
const PARSED_CHARS = 40_000_000;

const parsed = new LRUCache<string, { runId: string; values: readonly unknown[] }>({
  maxSize: PARSED_CHARS,
  sizeCalculation: (_, text) => Math.max(1, text.length),
});

/**
 * `text` parsed, once per thread while it is kept: a live run's resumes hand in the same stored
 * chunk texts and Reviewer-lane pages batch after batch (lib/server/rebuild/resume-state.ts keeps
 * them), so only the new ones are parsed (and their events read back through the contract), not
 * the whole run's on every batch. The rebuild never changes what it parsed (the job's tests compare
 * resumes over these values with full rebuilds); the least recently used texts go first.
 */
function parsedOnce<T>(text: string, runId: string, parse: (text: string) => T[]): readonly T[] {
  const hit = parsed.get(text);
  if (hit && hit.runId === runId) return hit.values as readonly T[];
  const values = parse(text);
  if (text.length <= PARSED_CHARS / 4) parsed.set(text, { runId, values });
  return values;
}

// Not read through ZTurnDecision: this text was written by this function from the core's output,
// and is only read with a checkpoint of this build's format (resumeRebuildTail refuses another
// version: full rebuild). Validating would add about a fifth to the parse of every stored chunk
// (measured on the 2,000-turn demo run's 8 chunks, 2.6 MB: 12.6 → 15.5 ms).
const parseTurns = (text: string) => JSON.parse(text) as TTurnDecision[];

/** The triage marks to store (from `fromTurn` on, or all) and the whole run's counts. */
function triageOf(decisions: TRunDecisions, fromTurn: number | null): TriageOutput {
  const all = triageMarks(decisions.turns, decisions.findings);
  return { fromTurn, marks: fromTurn === null ? all : all.filter((m) => m.turn >= fromTurn), counts: triageCounts(all) };
}

/**
 * The decision digests to store: all of them, or on a resume those of the buckets from the one that
 * holds its first rewritten turn on (the buckets before it hold only turns the resume left alone).
 */
function digestsOf(turns: readonly TTurnDecision[], fromTurn: number | null): { fromBucket: number | null; digests: DecisionDigest[] } {
  if (fromTurn === null) return { fromBucket: null, digests: decisionDigests(turns) };
  const fromBucket = bucketOfTurn(fromTurn);
  const first = turns.findIndex((t) => bucketOfTurn(t.turn) >= fromBucket);
  return { fromBucket, digests: first < 0 ? [] : decisionDigests(turns.slice(first)) };
}

/**
 * The search index to store (docs/search.md): every bucket's rows, or on a resume those of the
 * buckets from the one holding `fromTurn` on, each computed whole from every turn, finding and
 * model.action (`events` holds every model.action of the run, also on a resume).
 */
function searchOf(decisions: TRunDecisions, events: readonly TEvent[], fromTurn: number | null): StoredSearchTerms {
  const fromBucket = fromTurn === null ? null : bucketOfTurn(fromTurn);
  return {
    fromBucket,
    rows: searchTermRows({ turns: decisions.turns, findings: decisions.findings, actions: actionsByTurn(events), fromBucket }),
  };
}

const TIMELINE_TYPES: ReadonlySet<string> = new Set(TIMELINE_EVENT_TYPES);

/**
 * The decisions' counts plus the policy and copy the run started with (run_decisions.summary),
 * read from its run.started or, on a resume, from the checkpoint that carries them.
 */
export function summaryOf(decisions: TRunDecisions, from: readonly TEvent[] | RebuildCheckpoint): TRunSummaryColumn {
  const counts = summarizeDecisions(decisions);
  const withProjection = (policy: TPolicy, copy: TRunSummaryColumn["copy"]): TRunSummaryColumn => ({
    ...counts,
    policy,
    copy,
    // What runs out next at the run's recent pace (docs/projection.md), from its last turns only.
    projection: runProjection(decisions.turns.slice(-PROJECTION_TURNS), policy),
    // How far off that projection was, each time a meter reached a stage or its limit (one pass over the turns).
    projectionCheck: projectionCheck(decisions.turns, policy),
  });
  if (!Array.isArray(from)) {
    const checkpoint = from as RebuildCheckpoint;
    return withProjection(checkpoint.policy, checkpoint.copy ?? null);
  }
  const started = (from as readonly TEvent[]).find((e) => e.type === "run.started");
  return withProjection(
    started?.type === "run.started" ? started.body.policy : {},
    started?.type === "run.started" ? (started.body.copy ?? null) : null,
  );
}
