import { createHash, randomUUID } from "node:crypto";
import { checkEvent, parseInstant, type TEvent, type TIngestResponse, type TIngestResult } from "@/lib/contracts";
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
}

/** Tuning of the ingestion transaction; the defaults fit a 1,000-event batch under real load. */
export interface IngestOptions {
  /** Transactions of one batch run at most this many at once per database (PGlite: always 1). */
  concurrency?: number;
  /** How long a batch may wait for its turn before the answer is 503 (ms). */
  queueTimeoutMs?: number;
  /** Whole-transaction attempts on a deadlock, serialization failure or transaction timeout. */
  attempts?: number;
  /** Prisma interactive transaction: wait for a connection, and total time (ms). */
  maxWaitMs?: number;
  timeoutMs?: number;
  /**
   * Called once the batch's transaction committed, with the runs (primary keys) that got new
   * events: the ingest route schedules their rebuilds (lib/server/jobs/schedule.ts).
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
 * Under concurrent writers of overlapping batches: every statement takes its locks in one global
 * order (runs by run id, events by event id, run updates by run id), batches queue per database
 * instead of on Prisma's transaction timers, and a transaction that still loses a deadlock or
 * times out is retried whole, with jittered backoff. What escapes is a transient database error
 * (503 with Retry-After), never a 500.
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
    const candidate = { index, event: checked.event, hash: sha256(canonicalJson(raw)) };
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
    const { out: stored, changed } = await withIngestSlot(db, settings, () =>
      withConflictRetry(settings.attempts, () =>
        db.prisma.$transaction((tx) => storeCandidates(tx, projectId, candidates), {
          maxWait: settings.maxWaitMs,
          timeout: settings.timeoutMs,
        }),
      ),
    );
    for (const [index, result] of stored) results[index] = result;
    if (changed.length > 0) await options.onStored?.(changed);
  }

  const summary = { created: 0, duplicate: 0, error: 0 };
  for (const result of results) summary[result.status]++;
  return { results, summary };
}

type Tx = Prisma.TransactionClient;

/** One attempt: everything inside one transaction; the results are kept only if it commits. */
async function storeCandidates(
  tx: Tx,
  projectId: string,
  candidates: readonly Candidate[],
): Promise<{ out: Map<number, TIngestResult>; changed: string[] }> {
  const out = new Map<number, TIngestResult>();
  const runPks = await ensureRuns(tx, projectId, candidates);
  const accepted = await withoutSecondStarts(tx, projectId, runPks, candidates, out);
  const created = new Set(await insertEvents(tx, projectId, runPks, accepted));
  const others = accepted.filter((c) => !created.has(c.event.id));
  if (others.length > 0) await classifyNotCreated(tx, projectId, runPks, others, out);
  for (const c of accepted) if (created.has(c.event.id)) out.set(c.index, { id: c.event.id, status: "created" });
  const stored = accepted.filter((c) => created.has(c.event.id));
  await updateRuns(tx, projectId, runPks, stored);
  return { out, changed: [...new Set(stored.map((c) => runPks.get(c.event.runId)!))] };
}

/** An ISO text PostgreSQL reads as the same instant (four-digit years: the contract's range). */
function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** The run rows the events belong to, created on first sight (a run may start with any event). */
async function ensureRuns(tx: Tx, projectId: string, candidates: readonly Candidate[]): Promise<Map<string, string>> {
  const firstAt = new Map<string, number>();
  for (const { event } of candidates) {
    const at = parseInstant(event.ts)!.ms;
    const seen = firstAt.get(event.runId);
    if (seen === undefined || at < seen) firstAt.set(event.runId, at);
  }
  // Sorted by run id, inserted in that order: concurrent batches lock run rows in one order.
  const runIds = [...firstAt.keys()].sort(compareCodePoints);
  // A concurrent creator of the same run wins harmlessly (ON CONFLICT DO NOTHING, after waiting
  // for it to commit), and the SELECT then sees its row.
  await tx.$executeRawUnsafe(
    `INSERT INTO "runs" ("id", "project_id", "run_id", "started_at")
     SELECT i, $1, r, a::timestamptz FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(i, r, a, n)
     ORDER BY n
     ON CONFLICT ("project_id", "run_id") DO NOTHING`,
    projectId,
    runIds.map(() => randomUUID()),
    runIds,
    runIds.map((runId) => isoOf(firstAt.get(runId)!)),
  );
  const rows = await tx.$queryRawUnsafe<{ id: string; run_id: string }[]>(
    `SELECT "id", "run_id" FROM "runs" WHERE "project_id" = $1 AND "run_id" = ANY($2::text[])`,
    projectId,
    runIds,
  );
  return new Map(rows.map((row) => [row.run_id, row.id]));
}

/**
 * Inserts the events in one statement, sorted by event id (so two batches holding the same ids
 * lock them in the same order and never deadlock): arrays bound as parameters and unnested, one
 * round trip for 1,000 events. ON CONFLICT DO NOTHING leaves a stored event untouched — on the
 * (project, event id) key and on the one-run.started-per-run index alike; RETURNING names the
 * ones this call created.
 */
async function insertEvents(tx: Tx, projectId: string, runPks: Map<string, string>, accepted: readonly Candidate[]): Promise<string[]> {
  if (accepted.length === 0) return [];
  const sorted = [...accepted].sort((a, b) => compareCodePoints(a.event.id, b.event.id));
  const columns = {
    runPk: [] as string[],
    eventId: [] as string[],
    type: [] as string[],
    ts: [] as string[],
    at: [] as string[],
    turn: [] as (number | null)[],
    body: [] as string[],
    hash: [] as string[],
  };
  for (const { event, hash } of sorted) {
    columns.runPk.push(runPks.get(event.runId)!);
    columns.eventId.push(event.id);
    columns.type.push(event.type);
    columns.ts.push(event.ts);
    columns.at.push(isoOf(parseInstant(event.ts)!.ms));
    columns.turn.push(event.turn ?? null);
    columns.body.push(JSON.stringify(event.body));
    columns.hash.push(hash);
  }
  const rows = await tx.$queryRawUnsafe<{ eventId: string }[]>(
    `INSERT INTO "events" ("project_id", "run_pk", "event_id", "type", "ts", "at", "turn", "body", "content_hash")
     SELECT $1, r, e, ty, ts, at::timestamptz, tu, b::jsonb, h
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[])
         WITH ORDINALITY AS u(r, e, ty, ts, at, tu, b, h, n)
      ORDER BY n
     ON CONFLICT DO NOTHING
     RETURNING "event_id" AS "eventId"`,
    projectId,
    columns.runPk,
    columns.eventId,
    columns.type,
    columns.ts,
    columns.at,
    columns.turn,
    columns.body,
    columns.hash,
  );
  return rows.map((row) => row.eventId);
}

/**
 * Why an accepted event was not created: its id is stored with the same content (duplicate) or with
 * other content (conflict), or — a run.started — a concurrent batch stored its run's start first.
 */
async function classifyNotCreated(
  tx: Tx,
  projectId: string,
  runPks: Map<string, string>,
  others: readonly Candidate[],
  out: Map<number, TIngestResult>,
) {
  const stored = await tx.$queryRawUnsafe<{ eventId: string; contentHash: string }[]>(
    `SELECT "event_id" AS "eventId", "content_hash" AS "contentHash" FROM "events" WHERE "project_id" = $1 AND "event_id" = ANY($2::text[])`,
    projectId,
    others.map((c) => c.event.id),
  );
  const storedHash = new Map(stored.map((row) => [row.eventId, row.contentHash]));
  const lostStarts: Candidate[] = [];
  for (const c of others) {
    const hash = storedHash.get(c.event.id);
    if (hash === undefined) {
      if (c.event.type === "run.started") lostStarts.push(c);
      else throw new RetryIngest(`event ${JSON.stringify(c.event.id)} was neither created nor found`);
    } else if (hash === c.hash) out.set(c.index, { id: c.event.id, status: "duplicate" });
    else out.set(c.index, { id: c.event.id, status: "error", error: conflict(c.event.id) });
  }
  if (lostStarts.length === 0) return;
  const starts = await storedStarts(
    tx,
    projectId,
    lostStarts.map((c) => runPks.get(c.event.runId)!),
  );
  for (const c of lostStarts) {
    const existing = starts.get(runPks.get(c.event.runId)!);
    if (existing === undefined) throw new RetryIngest(`run.started ${JSON.stringify(c.event.id)} was neither created nor found`);
    out.set(c.index, secondStart(c, existing));
  }
}

async function storedStarts(tx: Tx, projectId: string, runPks: readonly string[]): Promise<Map<string, string>> {
  const rows = await tx.$queryRawUnsafe<{ runPk: string; eventId: string }[]>(
    `SELECT "run_pk" AS "runPk", "event_id" AS "eventId" FROM "events" WHERE "project_id" = $1 AND "run_pk" = ANY($2::text[]) AND "type" = 'run.started'`,
    projectId,
    [...new Set(runPks)],
  );
  return new Map(rows.map((row) => [row.runPk, row.eventId]));
}

/**
 * A run starts once: a run.started whose run already has one under another id is an error for
 * that event (the stored one stays). A repeat of the same id goes on to the duplicate check. A
 * concurrent batch may still store another start between this check and the insert: the partial
 * unique index (one run.started per run) then decides, and classifyNotCreated answers the same.
 */
async function withoutSecondStarts(
  tx: Tx,
  projectId: string,
  runPks: Map<string, string>,
  candidates: readonly Candidate[],
  out: Map<number, TIngestResult>,
): Promise<Candidate[]> {
  const starts = candidates.filter((c) => c.event.type === "run.started");
  if (starts.length === 0) return [...candidates];
  const startOf = await storedStarts(
    tx,
    projectId,
    starts.map((c) => runPks.get(c.event.runId)!),
  );
  const rejected = new Set<Candidate>();
  for (const c of starts) {
    const runPk = runPks.get(c.event.runId)!;
    const existing = startOf.get(runPk);
    if (existing === undefined) startOf.set(runPk, c.event.id);
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

/**
 * Keeps each run's summary columns in step with the events just stored: the rows are locked in
 * run-id order first (FOR NO KEY UPDATE, which the events' foreign-key checks do not wait on),
 * then one UPDATE sets every run. Timestamps travel as ISO text cast by PostgreSQL.
 */
async function updateRuns(tx: Tx, projectId: string, runPks: Map<string, string>, created: readonly Candidate[]): Promise<void> {
  const byRun = new Map<string, TEvent[]>();
  for (const { event } of created) {
    const list = byRun.get(event.runId) ?? [];
    list.push(event);
    byRun.set(event.runId, list);
  }
  if (byRun.size === 0) return;
  const rows = [...byRun.keys()].sort(compareCodePoints).map((runId) => {
    const events = byRun.get(runId)!;
    let maxTurn: number | null = null;
    let earliest = Number.POSITIVE_INFINITY;
    for (const event of events) {
      if (event.turn !== undefined) maxTurn = Math.max(maxTurn ?? -1, event.turn);
      earliest = Math.min(earliest, parseInstant(event.ts)!.ms);
    }
    const started = events.find((e) => e.type === "run.started");
    const ended = events.find((e) => e.type === "run.ended");
    return {
      runPk: runPks.get(runId)!,
      count: events.length,
      maxTurn,
      earliest: isoOf(earliest),
      started: started?.type === "run.started" ? started : null,
      ended: ended?.type === "run.ended" ? ended : null,
    };
  });
  const pks = rows.map((r) => r.runPk);
  await tx.$queryRawUnsafe(
    `SELECT 1 FROM "runs" WHERE "project_id" = $1 AND "id" = ANY($2::text[]) ORDER BY "run_id" FOR NO KEY UPDATE`,
    projectId,
    pks,
  );
  await tx.$executeRawUnsafe(
    `UPDATE "runs" AS r SET
       "event_count" = r."event_count" + u.c,
       "max_turn" = CASE WHEN u.mt IS NULL THEN r."max_turn" ELSE GREATEST(COALESCE(r."max_turn", -1), u.mt) END,
       "last_event_at" = now(),
       "started_at" = CASE WHEN u.sa IS NOT NULL THEN u.sa::timestamptz ELSE LEAST(r."started_at", u.ea::timestamptz) END,
       "task" = CASE WHEN u.sa IS NOT NULL THEN u.task ELSE r."task" END,
       "agent" = CASE WHEN u.sa IS NOT NULL THEN u.agent ELSE r."agent" END,
       "model" = CASE WHEN u.sa IS NOT NULL THEN u.model ELSE r."model" END,
       "status" = COALESCE(u.st, r."status"),
       "ended_at" = CASE WHEN u.st IS NOT NULL THEN u.en::timestamptz ELSE r."ended_at" END
     FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
       AS u(pk, c, mt, ea, sa, task, agent, model, st, en)
     WHERE r."project_id" = $1 AND r."id" = u.pk`,
    projectId,
    pks,
    rows.map((r) => r.count),
    rows.map((r) => r.maxTurn),
    rows.map((r) => r.earliest),
    rows.map((r) => (r.started ? isoOf(parseInstant(r.started.ts)!.ms) : null)),
    rows.map((r) => r.started?.body.task ?? null),
    rows.map((r) => r.started?.body.agent ?? null),
    rows.map((r) => r.started?.body.model ?? null),
    rows.map((r) => r.ended?.body.status ?? null),
    rows.map((r) => (r.ended ? isoOf(parseInstant(r.ended.ts)!.ms) : null)),
  );
}

/** A state that a fresh attempt of the transaction resolves (a concurrent writer got in between). */
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
 * Runs the whole transaction again on a retryable failure, up to `attempts` times, waiting a
 * random time below an exponentially growing cap between attempts (full jitter: colliding
 * writers spread out instead of colliding again).
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
      const delay = Math.random() * Math.min(1_000, 20 * 2 ** attempt);
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function idOf(raw: unknown): string | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : null;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
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
