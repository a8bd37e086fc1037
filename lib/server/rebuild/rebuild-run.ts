import { ZRunTimeline } from "@/lib/contracts";
import { readRebuildCheckpoint, type RebuildCheckpoint } from "@/lib/core";
import { REVIEWER_EVENT_TYPES } from "@/lib/derived/reviewer/audit";
import { isTransientDatabaseError, type Database } from "@/lib/server/db";
import { jsonColumn, ZRunSummaryColumn } from "@/lib/server/db/json-columns";
import { clearRunAudit, storeRunAudit } from "@/lib/server/reviewer/store-audit";
import { TREND_VERSION } from "@/lib/trends/buckets";
import { queryEventRows } from "@/lib/server/runs/run-events";
import type { StoredEventRow } from "@/lib/server/db/json-columns";
import { eventLoopTurn } from "@/lib/server/event-loop-turn";
import { storeRunListFigures } from "@/lib/server/runs/list-figures";
import { readWholeDecisions, storeChunks, WHOLE_READ_PAGE_CHUNKS } from "@/lib/server/runs/stored-decisions";
import { storeDecisionDigests } from "@/lib/server/runs/decision-digests";
import { storeSearchTerms } from "@/lib/server/runs/search-terms";
import { storeTriageMarks } from "@/lib/server/runs/triage-marks";
import { clearTrendBuckets, storeTrendBuckets, type StoredTrendBuckets } from "@/lib/server/trends/store-buckets";
import { experimentRunRow, readRunExperiment, storeExperimentRun, type ExperimentRunRow, type RunExperiment } from "./experiment-runs";
import { keepResumeState, resumeStateOf, type ResumeState } from "./resume-state";
import { DERIVED_VERSION } from "./derived-version";
import type { RebuildTaskInput, RebuildTaskOutput, RebuildTasks } from "./rebuild-task";
import type { Threads } from "@/lib/server/jobs/threads";

export const WAITING_FOR_START = "waiting for the run's run.started event";

/** What one rebuild did, for the job's log and the tests. */
export interface RebuildOutcome {
  runPk: string;
  /** Events the stored rebuild includes; null when the run is gone. */
  eventCount: number | null;
  ok: boolean;
  /** "resumed" from the stored checkpoint, "full" from every event, "current" when nothing was new. */
  mode: "full" | "resumed" | "current" | null;
}

type RunKey = { id: string; projectId: string };
/** The run as the rebuild stores it: its key and what its trend buckets are filtered by. */
type RebuiltRun = RunKey & { agent: string | null; model: string | null; experimentId: string | null; experimentArm: string | null };

/**
 * Rebuilds one stored run and stores the result (the body of a rebuild job, lib/server/jobs/queue.ts).
 * Reads never rebuild; they serve what this stored.
 *
 * A live run is resumed from the checkpoint stored with its last rebuild (lib/core/resume.ts): only
 * the events of turns from the checkpoint's `nextTurn` on are read and parsed, so a new batch costs
 * in proportion to the new turns, not the run. A full rebuild reads every event; it is needed when
 * there is no usable checkpoint, when an event arrived late (a turn before `nextTurn`, or one that
 * committed below the stored `max_seq` after the last rebuild read — seen as a count that does not
 * add up), or when the core refuses the resume. The parsing and the core's work run on a job thread.
 *
 * A rebuild that read fewer events never overwrites one that read more (two rebuilds of one run can
 * meet: a job and a script, two workers, a retry): the row keeps the highest (`max_seq`, event count).
 */
export async function rebuildRun(db: Database, threads: Threads<RebuildTasks>, projectId: string, runPk: string): Promise<RebuildOutcome> {
  const run = await db.prisma.run.findUnique({
    where: { projectId_id: { projectId, id: runPk } },
    select: { id: true, projectId: true, runId: true, task: true, agent: true, model: true, experimentId: true, experimentArm: true },
  });
  if (!run) return { runPk, eventCount: null, ok: false, mode: null };
  const experiment = await readRunExperiment(db, run);
  const resumed = await tryResume(db, threads, run, experiment);
  if (resumed) return resumed;

  const rows = await queryEventRows(db, run);
  const maxSeq = rows.length ? rows[rows.length - 1].seq : "0";
  const turnTimes = await queryTurnTimes(db, run, maxSeq);
  const output: RebuildTaskOutput | { ok: "full rebuild needed" } =
    run.task === null && !rows.some((row) => row.type === "run.started")
      ? { ok: false, error: WAITING_FOR_START, eventCount: rows.length }
      : await threads
          .run("rebuild", { runId: run.runId, rows, eventCount: rows.length, turnTimes, experiment: taskExperiment(experiment) })
          .catch((error: unknown) => failed(error, rows.length));
  if (output.ok === "full rebuild needed") throw new Error("a full rebuild asked for a full rebuild");
  // The run's next resume starts from what this read (resume-state.ts): its Reviewer lane events as
  // text, a page at a time with a turn of the event loop between.
  const kept = output.ok && output.checkpoint ? { chunkTexts: [], reviewerRowTexts: await auditRowTextsOf(rows), turnTimes } : undefined;
  await storeRebuild(db, run, maxSeq, output, experimentRowOf(run, experiment, output), undefined, kept);
  return { runPk, eventCount: output.eventCount, ok: output.ok, mode: "full" };
}

/** What the rebuild task is told of the run's experiment (its key, or null when it is not the project's). */
function taskExperiment(experiment: RunExperiment | null): RebuildTaskInput["experiment"] {
  return experiment ? { key: experiment.found?.key ?? null } : undefined;
}

/** The run's experiment_runs row after this rebuild: none without an experiment or when the rebuild failed. */
function experimentRowOf(run: { runId: string }, experiment: RunExperiment | null, output: RebuildTaskOutput): ExperimentRunRow | null {
  return experiment && output.ok && output.experiment ? experimentRunRow(run.runId, experiment, output.experiment) : null;
}

/** The event types a resume reads over the whole run: the Reviewer audit's, the timeline's and the trends' (model.action). */
const AUDIT_TYPES = [...REVIEWER_EVENT_TYPES, "model.action"];

/**
 * How many chunks, and event rows, one statement of a resume's reads takes. On PGlite a statement
 * holds the one connection and no other statement runs meanwhile: pages of a few hundred kilobytes
 * keep each one short (a page of 16 chunks, ~5 MB, held every request's reads for up to a second).
 */
function readPages(db: Database): { chunks: number; rows: number } {
  return db.kind === "pglite" ? { chunks: 2, rows: 500 } : { chunks: WHOLE_READ_PAGE_CHUNKS, rows: 20_000 };
}

/**
 * The run's event rows with `after` < seq <= `upTo` that match `condition` (on $3…), in seq order,
 * `pageRows` a statement (each page after the last one's seq, through the (run, seq) index).
 * `onPage` takes each page as it comes (then nothing is returned).
 */
async function eventRowsInPages(
  db: Database,
  run: RunKey,
  condition: string,
  params: unknown[],
  after: string,
  upTo: string,
  pageRows: number,
  onPage?: (page: StoredEventRow[]) => void,
): Promise<StoredEventRow[]> {
  const rows: StoredEventRow[] = [];
  const n = params.length + 3;
  for (let from = after; ;) {
    const page = await queryEventRows(
      db,
      run,
      `${condition} AND "seq" > $${n}::bigint AND "seq" <= $${n + 1}::bigint`,
      [...params, from, upTo],
      pageRows,
    );
    if (onPage) {
      if (page.length > 0) onPage(page);
    } else for (const row of page) rows.push(row);
    if (page.length < pageRows) return rows;
    from = page[page.length - 1].seq;
  }
}

/**
 * The resume from the stored checkpoint, stored; null when a full rebuild is needed instead.
 *
 * What it reads is bounded by what arrived since when this process keeps the state of the stored
 * rebuild (lib/server/rebuild/resume-state.ts: it made that rebuild itself): the new turns' events,
 * the new Reviewer lane events and the new turns' times; and it writes only the Reviewer rows and
 * trend buckets that changed. Without that state (another process rebuilt the run, or this one
 * restarted) it reads the stored chunks and the Reviewer lane's events of the whole run, in pages.
 */
async function tryResume(
  db: Database,
  threads: Threads<RebuildTasks>,
  run: RebuiltRun & { runId: string },
  experiment: RunExperiment | null,
): Promise<RebuildOutcome | null> {
  const stored = await db.prisma.runDecisionsCache.findUnique({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    select: { eventCount: true, maxSeq: true, checkpoint: true, error: true, summary: true, derivedVersion: true, trendVersion: true },
  });
  const checkpoint: RebuildCheckpoint | null = stored?.checkpoint ? readRebuildCheckpoint(stored.checkpoint) : null;
  // No checkpoint, a failed rebuild, or one stored before the rebuild derived what it derives now
  // (DERIVED_VERSION: triage marks; trend buckets of another TREND_VERSION, or none): in full.
  if (
    !stored ||
    stored.derivedVersion < DERIVED_VERSION ||
    stored.trendVersion !== TREND_VERSION ||
    !checkpoint ||
    stored.error !== null ||
    !ZRunSummaryColumn.safeParse(stored.summary).success
  ) {
    return null;
  }
  const base = { eventCount: stored.eventCount, maxSeq: String(stored.maxSeq) };
  const state = resumeStateOf(db, run, base);
  // A stored rebuild this process did not make: its findings and timeline must still read back (a
  // read asked for its rebuild), else in full.
  if (!state) {
    const kept = await db.prisma.runDecisionsCache.findUnique({
      where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
      select: { findings: true, timeline: true },
    });
    if (!kept || kept.findings === null || kept.timeline === null || !storedTimelineReads(kept.timeline)) return null;
  }

  // What arrived since, and whether the stored rebuild really holds every event up to its max_seq:
  // the events before it are the run's count (kept by ingest in the statement that stores them, so
  // one snapshot holds both) less the fresh ones, which are read through the (run, seq) index: no
  // statement scans the whole run's events.
  const [since] = await db.prisma.$queryRawUnsafe<{ before: number; fresh: number; late: number; maxSeq: string | null }[]>(
    `SELECT (r."event_count" - f."fresh")::int AS "before", f."fresh", f."late", f."maxSeq"
       FROM "runs" r,
            (SELECT count(*)::int AS "fresh",
                    count(*) FILTER (WHERE "turn" < $4 OR "type" = 'run.started')::int AS "late",
                    max("seq")::text AS "maxSeq"
               FROM "events" WHERE "project_id" = $1 AND "run_pk" = $2 AND "seq" > $3) f
      WHERE r."project_id" = $1 AND r."id" = $2`,
    run.projectId,
    run.id,
    stored.maxSeq,
    checkpoint.nextTurn,
  );
  if (!since) return null;
  if (since.before !== stored.eventCount || since.late > 0) return null;
  if (since.fresh === 0) return { runPk: run.id, eventCount: stored.eventCount, ok: true, mode: "current" };
  const maxSeq = since.maxSeq ?? base.maxSeq;

  // The core needs only the chunk that holds the first changed turn, but the summary, the Reviewer
  // audit and the whole-run timeline are computed over every turn: the job thread takes every
  // stored chunk and every Reviewer lane event. With the state kept, only what is new is read: no
  // event before the checkpoint's turn arrived since (`late`), and none below the stored max_seq
  // (`before`), so the kept rows and turn times up to it are still the whole truth.
  const pages = readPages(db);
  const rows = await eventRowsInPages(
    db,
    run,
    ` AND ("turn" >= $3 OR "type" = 'run.ended')`,
    [checkpoint.nextTurn],
    "0",
    maxSeq,
    pages.rows,
  );
  let chunkTexts: readonly string[];
  let findingsJson: string;
  let reviewerRowTexts: string[];
  let turnTimes: [number, number][];
  if (state) {
    chunkTexts = state.chunkTexts;
    findingsJson = state.findingsJson;
    const fresh = await eventRowsInPages(db, run, ` AND "type" = ANY($3::text[])`, [AUDIT_TYPES], base.maxSeq, maxSeq, pages.rows);
    reviewerRowTexts = fresh.length > 0 ? [...state.reviewerRowTexts, JSON.stringify(fresh)] : [...state.reviewerRowTexts];
    turnTimes = state.turnTimes.filter(([turn]) => turn < checkpoint.nextTurn) as [number, number][];
    for (const time of await queryTurnTimes(db, run, maxSeq, checkpoint.nextTurn)) turnTimes.push(time);
  } else {
    const whole = await readWholeDecisions(db, run, pages.chunks);
    // Another rebuild committed between the two reads: the full rebuild decides.
    if (!whole || whole.head.eventCount !== base.eventCount || whole.head.maxSeq !== base.maxSeq || whole.head.findings === null)
      return null;
    chunkTexts = whole.chunkTexts;
    findingsJson = whole.head.findings;
    reviewerRowTexts = [];
    await eventRowsInPages(db, run, ` AND "type" = ANY($3::text[])`, [AUDIT_TYPES], "0", maxSeq, pages.rows, (page) =>
      reviewerRowTexts.push(JSON.stringify(page)),
    );
    turnTimes = await queryTurnTimes(db, run, maxSeq);
  }
  const input: RebuildTaskInput = {
    runId: run.runId,
    rows,
    eventCount: since.before + since.fresh,
    resume: { checkpoint, chunkTexts, findingsJson, reviewerRowTexts },
    turnTimes,
    experiment: taskExperiment(experiment),
  };
  const output = await threads.run("rebuild", input).catch((error: unknown) => failed(error, input.eventCount));
  // A resume the core refused, or one that failed: the full rebuild decides (and stores a failure).
  if (output.ok !== true) return null;
  // Stored only over the rebuild it resumed from (it writes the changed chunks only); if another
  // rebuild replaced that one meanwhile, the full rebuild decides.
  const kept = { chunkTexts, reviewerRowTexts, turnTimes };
  if (!(await storeRebuild(db, run, maxSeq, output, experimentRowOf(run, experiment, output), { ...base, state }, kept))) return null;
  return { runPk: run.id, eventCount: output.eventCount, ok: output.ok, mode: "resumed" };
}

/** The rows of the Reviewer lane's types (AUDIT_TYPES) among `rows`, as JSON texts of pages of them. */
async function auditRowTextsOf(rows: readonly StoredEventRow[]): Promise<string[]> {
  const types: ReadonlySet<string> = new Set(AUDIT_TYPES);
  const picked = rows.filter((row) => types.has(row.type));
  const texts: string[] = [];
  for (let at = 0; at < picked.length; at += AUDIT_TEXT_ROWS) {
    if (at > 0) await eventLoopTurn();
    texts.push(JSON.stringify(picked.slice(at, at + AUDIT_TEXT_ROWS)));
  }
  return texts;
}

const AUDIT_TEXT_ROWS = 2_000;

/**
 * A rebuild that failed for a reason of its own (its thread ran out of memory or died): stored as
 * the run's rebuild error, so readers see why and the sweep does not rebuild it again and again.
 * A database that failed is thrown on, for the queue to retry.
 */
function failed(error: unknown, eventCount: number): RebuildTaskOutput {
  if (isTransientDatabaseError(error)) throw error;
  console.error("[cuescope] a rebuild failed:", error);
  return { ok: false, error: `the rebuild failed: ${error instanceof Error ? error.message : String(error)}`, eventCount };
}

/** Whether a stored whole-run timeline still reads back through its contract (else: rebuild in full). */
function storedTimelineReads(text: string): boolean {
  try {
    return ZRunTimeline.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/**
 * Each turn's time (its earliest event's, ms since the epoch) over the events up to `maxSeq`: the
 * trend buckets' times, read the same way by a full rebuild and a resume so both store the same
 * buckets. Only the turns from `fromTurn` on when given (a resume keeps the earlier turns' times).
 */
async function queryTurnTimes(db: Database, run: RunKey, maxSeq: string, fromTurn?: number): Promise<[number, number][]> {
  const rows = await db.prisma.$queryRawUnsafe<{ turn: number; ms: number }[]>(
    `SELECT "turn", (extract(epoch FROM min("at")) * 1000)::float8 AS "ms" FROM "events"
      WHERE "project_id" = $1 AND "run_pk" = $2 AND "turn" IS NOT NULL AND "seq" <= $3::bigint${fromTurn === undefined ? "" : ` AND "turn" >= $4`}
      GROUP BY "turn"`,
    run.projectId,
    run.id,
    maxSeq,
    ...(fromTurn === undefined ? [] : [fromTurn]),
  );
  return rows.map((row) => [row.turn, Math.round(Number(row.ms))]);
}

/**
 * Writes a rebuild in one transaction: run_decisions (with the findings, the summary and the
 * checkpoint to resume from), its changed run_decision_chunks, the run's triage marks, decision digests and search index, its Reviewer
 * audit (reviewer_rows, run_reviewer_funnels), its trend buckets (trend_buckets) and its experiment row
 * (experiment_runs, lib/server/rebuild/experiment-runs.ts), then the run's
 * list figures (its findings, drops, drop rate, violations and finding codes on its row:
 * lib/server/runs/list-figures.ts), so no reader sees the decisions of one version beside the audit
 * or trends of another, or the chunks of two rebuilds.
 *
 * A full rebuild replaces every chunk, and never overwrites a stored rebuild of more events. A
 * resume (`base`: the stored rebuild it resumed from) writes only the chunks from the one holding
 * its first changed turn on, deletes those past its new end, and is stored only while `base` is
 * still the stored rebuild; false when it was not stored for that reason.
 */
async function storeRebuild(
  db: Database,
  run: RebuiltRun,
  maxSeq: string,
  output: RebuildTaskOutput,
  experimentRow: ExperimentRunRow | null,
  base?: { eventCount: number; maxSeq: string; state: ResumeState | null },
  kept?: Pick<ResumeState, "chunkTexts" | "reviewerRowTexts" | "turnTimes">,
): Promise<boolean> {
  const summary = output.ok ? JSON.stringify(jsonColumn(output.summary)) : null;
  const checkpoint = output.ok && output.checkpoint ? JSON.stringify(output.checkpoint) : null;
  const values = [
    run.projectId,
    run.id,
    output.eventCount,
    maxSeq,
    output.ok ? output.decisions.findingsJson : null,
    summary,
    output.ok ? null : output.error,
    checkpoint,
    output.ok ? output.timelineJson : null,
    output.ok ? JSON.stringify(output.triage.counts) : null,
    DERIVED_VERSION,
    TREND_VERSION,
    output.ok ? output.reviewerSpansJson : null,
  ];
  let buckets: StoredTrendBuckets | null = null;
  const stored = await db.prisma.$transaction(
    async (tx) => {
      const written = base
        ? await tx.$executeRawUnsafe(
            `UPDATE "run_decisions" SET "event_count" = $3, "max_seq" = $4::bigint, "findings" = $5, "summary" = $6::jsonb,
                    "error" = $7, "checkpoint" = $8::jsonb, "timeline" = $9, "triage_counts" = $10::jsonb,
                    "derived_version" = $11, "trend_version" = $12, "reviewer_spans" = $13, "built_at" = now()
              WHERE "project_id" = $1 AND "run_pk" = $2 AND ("max_seq", "event_count") = ($14::bigint, $15)`,
            ...values,
            base.maxSeq,
            base.eventCount,
          )
        : await tx.$executeRawUnsafe(
            `INSERT INTO "run_decisions"
               ("project_id", "run_pk", "event_count", "max_seq", "findings", "summary", "error", "checkpoint", "timeline",
                "triage_counts", "derived_version", "trend_version", "reviewer_spans", "built_at")
             VALUES ($1, $2, $3, $4::bigint, $5, $6::jsonb, $7, $8::jsonb, $9, $10::jsonb, $11, $12, $13, now())
             ON CONFLICT ("project_id", "run_pk") DO UPDATE SET
               "event_count" = EXCLUDED."event_count", "max_seq" = EXCLUDED."max_seq", "findings" = EXCLUDED."findings",
               "summary" = EXCLUDED."summary", "error" = EXCLUDED."error", "checkpoint" = EXCLUDED."checkpoint",
               "timeline" = EXCLUDED."timeline", "triage_counts" = EXCLUDED."triage_counts",
               "derived_version" = EXCLUDED."derived_version", "trend_version" = EXCLUDED."trend_version",
               "reviewer_spans" = EXCLUDED."reviewer_spans", "built_at" = now()
             WHERE ("run_decisions"."max_seq", "run_decisions"."event_count") <= (EXCLUDED."max_seq", EXCLUDED."event_count")`,
            ...values,
          );
      if (written === 0) return !base; // a rebuild of more events got there first, or the resumed one was replaced
      await storeChunks(tx, run, output.ok ? output.decisions : { fromChunk: 0, chunks: [] });
      await storeTriageMarks(tx, run, output.ok ? output.triage : { fromTurn: null, marks: [] });
      await storeDecisionDigests(tx, run, output.ok ? output.digests : { fromBucket: null, digests: [] });
      await storeSearchTerms(tx, run, output.ok ? output.search : { fromBucket: null, rows: [] });
      if (output.ok) {
        // Over the rebuild this process made itself, only the Reviewer rows and buckets that changed.
        const state = base?.state ?? undefined;
        await storeRunAudit(
          tx,
          { id: run.id, projectId: run.projectId, eventCount: output.eventCount },
          output.audit,
          state?.auditRowTexts,
        );
        buckets = await storeTrendBuckets(tx, run, output.trends, state?.buckets);
      } else {
        await clearRunAudit(tx, run);
        await clearTrendBuckets(tx, run);
      }
      // The run's experiment row (a run without one has none: a full rebuild deletes any stale row).
      if (experimentRow || !base) await storeExperimentRun(tx, run, experimentRow);
      await storeRunListFigures(tx, run, output.ok ? output.listFigures : null);
      return true;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
  // What the next resume of the run needs, kept while the run's row holds this rebuild (resume-state.ts).
  if (output.ok && kept && buckets && stored && output.checkpoint) {
    const { fromChunk, chunks, findingsJson } = output.decisions;
    keepResumeState(db, run, {
      eventCount: output.eventCount,
      maxSeq,
      chunkTexts: [...kept.chunkTexts.slice(0, fromChunk), ...chunks.map((chunk) => chunk.json)],
      findingsJson,
      reviewerRowTexts: kept.reviewerRowTexts,
      turnTimes: kept.turnTimes,
      auditRowTexts: output.audit.rows.texts,
      buckets,
    });
  } else keepResumeState(db, run, null);
  return stored;
}
