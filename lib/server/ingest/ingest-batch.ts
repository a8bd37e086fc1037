import * as crypto from "node:crypto";
import { checkEvent, parseCommonInstantMs, parseInstant, type TEvent, type TIngestResponse, type TIngestResult } from "@/lib/contracts";
import { canonicalJson, compareCodePoints } from "@/lib/core";
import type { Database } from "@/lib/server/db";
import { errorCodes, isTransactionConflict } from "@/lib/server/db/errors";
import { DomainError } from "@/lib/server/errors";
import type { Prisma } from "@/lib/server/db/generated/client";
import { env } from "@/lib/server/env";

interface Candidate {
  index: number;
  event: TEvent;
  /**
   * sha256 of the canonical JSON of the event as received, unknown properties included: contract §4
   * calls a re-send with the same JSON value (key order aside) a duplicate, and any other content a
   * conflict.
   */
  hash: string;
  /** The event's instant: milliseconds since the epoch, and as ISO text (what the `at` column stores). */
  ms: number;
  at: string;
}

/** Tuning of the ingestion writes; the defaults fit a 1,000-event batch under real load. */
export interface IngestOptions {
  /** Batches store at most this many at once per database (PGlite: always 1). */
  concurrency?: number;
  /** How long a batch may wait for its turn before the answer is 503 (ms). */
  queueTimeoutMs?: number;
  /** Whole attempts (the store statement, or the transaction creating runs) on a deadlock, serialization failure or transaction timeout. */
  attempts?: number;
  /** The transaction of a batch that creates runs (Prisma interactive): wait for a connection, and total time (ms). */
  maxWaitMs?: number;
  timeoutMs?: number;
  /**
   * Called once the batch's events are committed, with the runs (primary keys) that got new
   * events: the ingest route schedules their rebuilds (lib/server/http/schedule-rebuilds.ts).
   */
  onStored?: (changedRunPks: readonly string[]) => void | Promise<void>;
}

type IngestSettings = Required<Omit<IngestOptions, "onStored">>;

const DEFAULTS: IngestSettings = {
  concurrency: env("CUESCOPE_INGEST_CONCURRENCY"),
  queueTimeoutMs: 30_000,
  attempts: 6,
  maxWaitMs: 10_000,
  timeoutMs: 60_000,
};

/**
 * Stores a batch of telemetry events for a project (contract §4): each event is checked on its own
 * (lib/contracts checkEvent: the schema plus what storage needs), valid ones are stored even when
 * others fail. Idempotency lives in the database: the unique (project, event id) constraint
 * decides; re-sending the same content is `duplicate`, the same id with other content is a
 * `conflict` error and the stored event is untouched.
 *
 * A batch is one statement when its runs exist, else one transaction (storeCandidates). Under
 * concurrent writers of overlapping batches: every write takes its locks in one global order
 * (runs by run id, events by event id, run updates by run id), batches queue per database instead
 * of on Prisma's transaction timers, and an attempt that still loses a deadlock or times out is
 * retried whole, with jittered backoff. What escapes is a transient database error (503 with
 * Retry-After), never a 500.
 */
export async function ingestBatch(
  db: Database,
  projectId: string,
  batch: readonly unknown[],
  options: IngestOptions = {},
): Promise<TIngestResponse> {
  const settings = { ...DEFAULTS, ...options };
  const results: TIngestResult[] = new Array(batch.length);
  const candidates: Candidate[] = [];
  const firstInBatch = new Map<string, Candidate>();

  batch.forEach((raw, index) => {
    const id = idOf(raw);
    const checked = checkEvent(raw);
    if (!checked.ok) {
      results[index] = { id, status: "error", error: firstProblem(checked.problems) };
      return;
    }
    // canonicalJson recurses: safe, checkEvent has bounded the depth of `raw`.
    const candidate = { index, event: checked.event, hash: sha256(canonicalJson(raw)), ...instantOf(checked.event.ts) };
    const earlier = firstInBatch.get(checked.event.id);
    if (earlier) {
      results[index] =
        earlier.hash === candidate.hash ? { id, status: "duplicate" } : { id, status: "error", error: conflict(checked.event.id) };
      return;
    }
    firstInBatch.set(checked.event.id, candidate);
    candidates.push(candidate);
  });

  if (candidates.length > 0) {
    const { out: stored, changed } = await withIngestSlot(db, settings, () => storeCandidates(db, settings, projectId, candidates));
    for (const [index, result] of stored) results[index] = result;
    if (changed.length > 0) await options.onStored?.(changed);
  }

  const summary = { created: 0, duplicate: 0, error: 0 };
  for (const result of results) summary[result.status]++;
  return { results, summary };
}

type Tx = Prisma.TransactionClient;
type PrismaClient = Database["prisma"];

/**
 * Stores the candidates and answers each. Most batches go to runs that already exist: for them the
 * whole store is one statement (storeStatement), atomic on its own, with no transaction around it.
 * A batch that starts runs creates them first, in a transaction with the same statement. Events
 * the statement did not create are then classified by reading what is stored (classifyNotCreated);
 * one that is neither created nor stored (a concurrent writer got in between) goes round again.
 */
async function storeCandidates(
  db: Database,
  settings: IngestSettings,
  projectId: string,
  candidates: readonly Candidate[],
): Promise<{ out: Map<number, TIngestResult>; changed: string[] }> {
  const out = new Map<number, TIngestResult>();
  const changed = new Set<string>();
  const runs = firstSeen(candidates);
  let pending = await withoutSecondStarts(db.prisma, projectId, candidates, out);
  for (let round = 1; pending.length > 0; round++) {
    const stored = await withConflictRetry(settings.attempts, () => storeOnce(db, settings, projectId, runs, pending));
    for (const runPk of stored.changed) changed.add(runPk);
    const created = new Set(stored.created);
    for (const c of pending) if (created.has(c.event.id)) out.set(c.index, { id: c.event.id, status: "created" });
    const others = pending.filter((c) => !created.has(c.event.id));
    pending = others.length > 0 ? await classifyNotCreated(db.prisma, projectId, others, out) : [];
    if (pending.length > 0) {
      const what = `event ${JSON.stringify(pending[0].event.id)} was neither created nor found`;
      if (round >= settings.attempts)
        throw new DomainError("unavailable", `ingestion kept colliding with concurrent writers (${what}); retry`, undefined, 1);
      console.warn(`[cuescope] ingest: round ${round} collided with a concurrent writer (${what}); storing the rest again`);
      await sleep(backoff(round));
    }
  }
  return { out, changed: [...changed] };
}

interface Stored {
  /** Event ids the statement inserted. */
  created: string[];
  /** Primary keys of the runs whose summary columns it updated (the runs that got events). */
  changed: string[];
}

/**
 * One attempt: the store statement alone when every run of the batch exists; otherwise the runs
 * are created first and the statement runs after them in one transaction, so a new run commits
 * together with its first events (or not at all).
 */
async function storeOnce(
  db: Database,
  settings: IngestSettings,
  projectId: string,
  runs: RunsSeen,
  pending: readonly Candidate[],
): Promise<Stored> {
  const rows = eventRows(pending);
  const experiment = pending.some((c) => c.event.type === "run.started" && c.event.body.experiment !== undefined);
  // Straight to the driver (the pool, or PGlite's one connection, which waits for any open
  // transaction): Prisma would pass the large JSON parameter through JSON.stringify and JSON.parse
  // once more on its way (see storeStatement).
  const stored = await storeStatement((sql, params) => db.executeSql(sql, params).then((r) => r.rows), projectId, rows, experiment);
  if (stored) return stored;
  return db.prisma.$transaction(
    async (tx) => {
      await insertRuns(tx, projectId, runs);
      const again = await storeStatement((sql, params) => tx.$queryRawUnsafe(sql, ...params), projectId, rows, experiment);
      // Only a run deleted in between gets here; the whole attempt goes again.
      if (!again) throw new RetryIngest("a run of the batch was neither created nor found");
      return again;
    },
    { maxWait: settings.maxWaitMs, timeout: settings.timeoutMs },
  );
}

/** An ISO text PostgreSQL reads as the same instant (four-digit years: the contract's range). */
function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A valid ts (checkEvent has checked it) as its instant in milliseconds and as ISO text. The form
 * agents nearly always send, `YYYY-MM-DDTHH:MM:SS.sssZ`, already is that text: no Date is made for it.
 */
function instantOf(ts: string): { ms: number; at: string } {
  const common = parseCommonInstantMs(ts);
  if (common === common) return { ms: common, at: ts }; // not NaN
  const { ms } = parseInstant(ts)!;
  return { ms, at: isoOf(ms) };
}

/** The batch's runs, by run id, sorted, with the earliest instant of their events in the batch. */
interface RunsSeen {
  runIds: string[];
  firstAt: string[];
}

function firstSeen(candidates: readonly Candidate[]): RunsSeen {
  const firstAt = new Map<string, number>();
  for (const { event, ms: at } of candidates) {
    const seen = firstAt.get(event.runId);
    if (seen === undefined || at < seen) firstAt.set(event.runId, at);
  }
  const runIds = [...firstAt.keys()].sort(compareCodePoints);
  return { runIds, firstAt: runIds.map((runId) => isoOf(firstAt.get(runId)!)) };
}

/**
 * Creates the batch's runs that do not exist yet (a run may start with any event), in run-id
 * order, so concurrent batches lock run rows in one order. A concurrent creator of the same run
 * wins harmlessly: ON CONFLICT DO NOTHING waits for it to commit, and the next statement of the
 * transaction sees its row.
 */
async function insertRuns(tx: Tx, projectId: string, runs: RunsSeen): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO "runs" ("id", "project_id", "run_id", "started_at")
     SELECT i, $1, r, a::timestamptz FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(i, r, a, n)
     ORDER BY n
     ON CONFLICT ("project_id", "run_id") DO NOTHING`,
    projectId,
    runs.runIds.map(() => crypto.randomUUID()),
    runs.runIds,
    runs.firstAt,
  );
}

/**
 * The candidates as the store statement's one JSON parameter: an array of rows sorted by event id,
 * `b` the body as accepted. One JSON.stringify of the whole batch, parsed once by PostgreSQL, costs
 * far less than a JSON text per body inside nine escaped array literals.
 */
function eventRows(candidates: readonly Candidate[]): string {
  const sorted = [...candidates].sort((a, b) => compareCodePoints(a.event.id, b.event.id));
  return JSON.stringify(
    sorted.map(({ event, hash, index, at }) => ({
      r: event.runId,
      e: event.id,
      ty: event.type,
      ts: event.ts,
      at,
      tu: event.turn ?? null,
      b: event.body,
      h: hash,
      // Position in the batch: "the first run.ended of the batch" is decided by it.
      k: index,
    })),
  );
}

/**
 * Step 3 and 5's parts for a run.started naming an experiment (contract §10): only in the statement
 * of a batch that holds one, so a v1 batch runs the statement it always ran.
 */
const EXPERIMENT_CHANGES = `(array_agg(e."body"->'experiment'->>'id' ORDER BY u.k) FILTER (WHERE e."type" = 'run.started'))[1] AS xi,
              (array_agg(e."body"->'experiment'->>'arm' ORDER BY u.k) FILTER (WHERE e."type" = 'run.started'))[1] AS xa,
              `;
const EXPERIMENT_UPDATES = `"experiment_id" = CASE WHEN c.sa IS NOT NULL THEN c.xi ELSE r."experiment_id" END,
         "experiment_arm" = CASE WHEN c.sa IS NOT NULL THEN c.xa ELSE r."experiment_arm" END,
         `;

/**
 * The store itself: one statement (one round trip, atomic on its own) for up to 1,000 events, run
 * by `query` (the driver, or a transaction). Answers null — nothing done — when a run of the batch
 * does not exist yet (the caller creates the runs and runs it again). In order, each step reading the one before (so the order is the data's, not the
 * planner's):
 *
 * 1. the runs' primary keys, by run id, within the project;
 * 2. the events, inserted in event-id order (two batches holding the same ids lock them in the same
 *    order and never deadlock), read from the one JSON parameter (eventRows). ON CONFLICT DO NOTHING
 *    leaves a stored event untouched — on the (project, event id) key and on the
 *    one-run.started-per-run index alike (on the partitioned layout, the claim trigger does the
 *    same); RETURNING names the ones this statement created;
 * 3. per run, what the created events change in its summary columns (the first run.started and
 *    run.ended in batch order);
 * 4. those runs locked in run-id order (FOR NO KEY UPDATE, which the events' foreign-key checks do
 *    not wait on), only after every event is in: events first, then runs, in every ingest write;
 * 5. one UPDATE of those runs. Timestamps travel as ISO text cast by PostgreSQL.
 */
async function storeStatement(
  query: (sql: string, params: unknown[]) => Promise<unknown[]>,
  projectId: string,
  rows: string,
  experiment: boolean,
): Promise<Stored | null> {
  const [answer] = (await query(
    `WITH input AS (
       SELECT * FROM ROWS FROM (
           json_to_recordset($2::json) AS (r text, e text, ty text, ts text, at timestamptz, tu int, b jsonb, h text, k int)
         ) WITH ORDINALITY AS u(run_id, event_id, type, ts, at, turn, body, hash, k, n)
     ),
     run_pks AS (
       SELECT "id", "run_id" FROM "runs" WHERE "project_id" = $1 AND "run_id" IN (SELECT run_id FROM input)
     ),
     complete AS (
       SELECT (SELECT count(*) FROM run_pks) = (SELECT count(DISTINCT run_id) FROM input) AS ok
     ),
     ins AS (
       INSERT INTO "events" ("project_id", "run_pk", "event_id", "type", "ts", "at", "turn", "body", "content_hash")
       SELECT $1, p."id", u.event_id, u.type, u.ts, u.at, u.turn, u.body, u.hash
         FROM input u JOIN run_pks p ON p."run_id" = u.run_id
        WHERE (SELECT ok FROM complete)
        ORDER BY u.n
       ON CONFLICT DO NOTHING
       RETURNING "run_pk", "event_id", "type", "at", "turn",
                 CASE WHEN "type" IN ('run.started', 'run.ended') THEN "body" END AS "body"
     ),
     changes AS (
       SELECT e."run_pk" AS pk, count(*)::int AS c, max(e."turn") AS mt, min(e."at") AS ea,
              (array_agg(e."at" ORDER BY u.k) FILTER (WHERE e."type" = 'run.started'))[1] AS sa,
              (array_agg(e."body"->>'task' ORDER BY u.k) FILTER (WHERE e."type" = 'run.started'))[1] AS task,
              (array_agg(e."body"->>'agent' ORDER BY u.k) FILTER (WHERE e."type" = 'run.started'))[1] AS agent,
              (array_agg(e."body"->>'model' ORDER BY u.k) FILTER (WHERE e."type" = 'run.started'))[1] AS model,
${experiment ? EXPERIMENT_CHANGES : ""}              (array_agg(e."body"->>'status' ORDER BY u.k) FILTER (WHERE e."type" = 'run.ended'))[1] AS st,
              (array_agg(e."at" ORDER BY u.k) FILTER (WHERE e."type" = 'run.ended'))[1] AS en
         FROM ins e JOIN input u ON u.event_id = e."event_id"
        GROUP BY e."run_pk"
     ),
     locked AS (
       SELECT r."id" FROM "runs" r
        WHERE r."project_id" = $1 AND r."id" IN (SELECT pk FROM changes)
        ORDER BY r."run_id"
          FOR NO KEY UPDATE
     ),
     updated AS (
       UPDATE "runs" AS r SET
         "event_count" = r."event_count" + c.c,
         "max_turn" = CASE WHEN c.mt IS NULL THEN r."max_turn" ELSE GREATEST(COALESCE(r."max_turn", -1), c.mt) END,
         "last_event_at" = now(),
         "started_at" = CASE WHEN c.sa IS NOT NULL THEN c.sa ELSE LEAST(r."started_at", c.ea) END,
         "task" = CASE WHEN c.sa IS NOT NULL THEN c.task ELSE r."task" END,
         "agent" = CASE WHEN c.sa IS NOT NULL THEN c.agent ELSE r."agent" END,
         "model" = CASE WHEN c.sa IS NOT NULL THEN c.model ELSE r."model" END,
${experiment ? EXPERIMENT_UPDATES : ""}         "status" = COALESCE(c.st, r."status"),
         "ended_at" = CASE WHEN c.st IS NOT NULL THEN c.en ELSE r."ended_at" END
       FROM changes c JOIN locked l ON l."id" = c.pk
       WHERE r."project_id" = $1 AND r."id" = c.pk
       RETURNING r."id"
     )
     SELECT (SELECT ok FROM complete) AS "complete",
            ARRAY(SELECT "event_id" FROM ins) AS "created",
            ARRAY(SELECT "id" FROM updated) AS "changed"`,
    [projectId, rows],
  )) as { complete: boolean; created: string[]; changed: string[] }[];
  return answer.complete ? { created: answer.created, changed: answer.changed } : null;
}

/**
 * Why an event was not created, read from what is stored (events are append-only: what was stored
 * when the insert skipped it is what a read finds): a run.started whose run has another stored
 * start is a second start (checked first, as withoutSecondStarts does); otherwise its id is stored
 * with the same content (duplicate) or with other content (conflict). Returns the ones found
 * neither way (a concurrent writer got in between), for another round.
 */
async function classifyNotCreated(
  prisma: PrismaClient,
  projectId: string,
  others: readonly Candidate[],
  out: Map<number, TIngestResult>,
): Promise<Candidate[]> {
  const stored = await prisma.$queryRawUnsafe<{ eventId: string; contentHash: string }[]>(
    `SELECT "event_id" AS "eventId", "content_hash" AS "contentHash" FROM "events" WHERE "project_id" = $1 AND "event_id" = ANY($2::text[])`,
    projectId,
    others.map((c) => c.event.id),
  );
  const storedHash = new Map(stored.map((row) => [row.eventId, row.contentHash]));
  const starts = others.filter((c) => c.event.type === "run.started");
  const startOf = starts.length > 0 ? await storedStarts(prisma, projectId, starts) : new Map<string, string>();
  const unresolved: Candidate[] = [];
  for (const c of others) {
    const start = startOf.get(c.event.runId);
    const hash = storedHash.get(c.event.id);
    if (c.event.type === "run.started" && start !== undefined && start !== c.event.id) out.set(c.index, secondStart(c, start));
    else if (hash === undefined) unresolved.push(c);
    else if (hash === c.hash) out.set(c.index, { id: c.event.id, status: "duplicate" });
    else out.set(c.index, { id: c.event.id, status: "error", error: conflict(c.event.id) });
  }
  return unresolved;
}

/** The stored run.started event id of each run the candidates name (by run id), where there is one. */
async function storedStarts(prisma: PrismaClient, projectId: string, candidates: readonly Candidate[]): Promise<Map<string, string>> {
  const rows = await prisma.$queryRawUnsafe<{ runId: string; eventId: string }[]>(
    `SELECT r."run_id" AS "runId", e."event_id" AS "eventId"
       FROM "events" e JOIN "runs" r ON r."project_id" = e."project_id" AND r."id" = e."run_pk"
      WHERE e."project_id" = $1 AND r."run_id" = ANY($2::text[]) AND e."type" = 'run.started'`,
    projectId,
    [...new Set(candidates.map((c) => c.event.runId))],
  );
  return new Map(rows.map((row) => [row.runId, row.eventId]));
}

/**
 * A run starts once: a run.started whose run already has one under another id is an error for
 * that event (the stored one stays). A repeat of the same id goes on to the duplicate check.
 *
 * Only a batch holding different run.started events for one run needs the stored start read up
 * front (which of them is refused depends on it). A single one is simply sent: the partial unique
 * index (one run.started per run) skips it when its run has another start, stored before or by a
 * concurrent batch, and classifyNotCreated answers exactly what this check would have.
 */
async function withoutSecondStarts(
  prisma: PrismaClient,
  projectId: string,
  candidates: readonly Candidate[],
  out: Map<number, TIngestResult>,
): Promise<Candidate[]> {
  const starts = candidates.filter((c) => c.event.type === "run.started");
  const startIds = new Map<string, Set<string>>();
  for (const c of starts) startIds.set(c.event.runId, (startIds.get(c.event.runId) ?? new Set()).add(c.event.id));
  if (![...startIds.values()].some((ids) => ids.size > 1)) return [...candidates];
  const startOf = await storedStarts(prisma, projectId, starts);
  const rejected = new Set<Candidate>();
  for (const c of starts) {
    const existing = startOf.get(c.event.runId);
    if (existing === undefined) startOf.set(c.event.runId, c.event.id);
    else if (existing !== c.event.id) {
      rejected.add(c);
      out.set(c.index, secondStart(c, existing));
    }
  }
  return candidates.filter((c) => !rejected.has(c));
}

function secondStart(c: Candidate, existing: string): TIngestResult {
  return {
    id: c.event.id,
    status: "error",
    error: {
      path: "type",
      message: `run ${JSON.stringify(c.event.runId)} already started with event ${JSON.stringify(existing)}; a run has one run.started`,
    },
  };
}

/** A state that a fresh attempt resolves (a concurrent writer got in between). */
class RetryIngest extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryIngest";
  }
}

/** Deadlock victim, serialization failure, interactive transaction expired or not started in time. */
function isRetryable(error: unknown): boolean {
  return error instanceof RetryIngest || isTransactionConflict(error) || errorCodes(error).includes("P2028");
}

/**
 * Runs the whole attempt (a statement, or the transaction that creates runs) again on a retryable
 * failure, up to `attempts` times, with a backoff between attempts. A failed attempt stored
 * nothing: a statement and a transaction are all or nothing.
 */
async function withConflictRetry<T>(attempts: number, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= attempts) {
        if (error instanceof RetryIngest)
          throw new DomainError("unavailable", `ingestion kept colliding with concurrent writers (${error.message}); retry`, undefined, 1);
        throw error; // a transient database error: answered 503 with Retry-After
      }
      const delay = backoff(attempt);
      console.warn(
        `[cuescope] ingest: attempt ${attempt} collided with a concurrent writer (${errorCodes(error).join(" ") || (error as Error).message}); retrying in ${delay.toFixed(0)} ms`,
      );
      await sleep(delay);
    }
  }
}

/** Per database: how many ingest transactions run now, and who waits for a turn. */
interface Slots {
  running: number;
  waiting: (() => void)[];
}
const slotsByClient = new WeakMap<object, Slots>();

/**
 * Lets at most `concurrency` batches of one database run their transaction at once (PGlite has one
 * connection: 1). The others wait here, in arrival order, rather than on Prisma's transaction
 * timers; a batch that waits longer than `queueTimeoutMs` is answered 503 with Retry-After.
 */
async function withIngestSlot<T>(db: Database, settings: IngestSettings, work: () => Promise<T>): Promise<T> {
  const limit = db.kind === "pglite" ? 1 : Math.max(1, settings.concurrency);
  let slots = slotsByClient.get(db.prisma);
  if (!slots) slotsByClient.set(db.prisma, (slots = { running: 0, waiting: [] }));
  const s = slots;
  if (s.running >= limit) {
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = s.waiting.indexOf(wake);
        if (at >= 0) s.waiting.splice(at, 1);
        reject(
          new DomainError(
            "unavailable",
            `the server is busy storing other batches (waited ${settings.queueTimeoutMs} ms); nothing was stored — retry`,
            undefined,
            2,
          ),
        );
      }, settings.queueTimeoutMs);
      s.waiting.push(wake);
    });
  } else s.running++;
  try {
    return await work();
  } finally {
    const next = s.waiting.shift();
    if (next)
      next(); // the slot passes on directly
    else s.running--;
  }
}

/** Full jitter: a random wait below an exponentially growing cap, so colliding writers spread out. */
function backoff(attempt: number): number {
  return Math.random() * Math.min(1_000, 20 * 2 ** attempt);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function idOf(raw: unknown): string | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : null;
}

/** crypto.hash (Node 20.12+): one call, without the Hash object createHash makes (several times faster for short texts). */
const oneShotHash = typeof crypto.hash === "function" ? crypto.hash : undefined;

function sha256(text: string): string {
  return oneShotHash ? oneShotHash("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex");
}

function conflict(id: string) {
  return {
    path: "id",
    message: `conflict: event ${JSON.stringify(id)} is already stored with other content; the stored event is unchanged`,
  };
}

function firstProblem(problems: { path: string; message: string }[]) {
  const [first, ...rest] = problems;
  const more = rest.length ? ` (and ${rest.map((p) => `${p.path || "(root)"}: ${p.message}`).join("; ")})` : "";
  return { path: first.path, message: `${first.message}${more}` };
}
