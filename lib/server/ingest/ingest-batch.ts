import { createHash, randomUUID } from "node:crypto";
import { parseInstant, problemsFrom, ZEvent, type TEvent, type TIngestResponse, type TIngestResult } from "../../contracts";
import { canonicalJson } from "../../core";
import type { Database } from "../db";
import type { Prisma } from "../db/generated/client";

interface Candidate {
  index: number;
  event: TEvent;
  hash: string;
}

/**
 * Stores a batch of telemetry events for a project (SPEC §4): each event is validated on its own,
 * valid ones are stored even when others fail. Idempotency lives in the database: the unique
 * (project, event id) constraint decides; re-sending the same content is `duplicate`, the same id
 * with other content is a `conflict` error and the stored event is untouched.
 */
export async function ingestBatch(db: Database, projectId: string, batch: readonly unknown[]): Promise<TIngestResponse> {
  const results: TIngestResult[] = new Array(batch.length);
  const candidates: Candidate[] = [];
  const firstInBatch = new Map<string, Candidate>();

  batch.forEach((raw, index) => {
    const id = idOf(raw);
    const parsed = ZEvent.safeParse(raw);
    if (!parsed.success) {
      results[index] = { id, status: "error", error: firstProblem(problemsFrom(parsed.error)) };
      return;
    }
    const candidate = { index, event: parsed.data, hash: contentHash(raw) };
    const earlier = firstInBatch.get(parsed.data.id);
    if (earlier) {
      results[index] =
        earlier.hash === candidate.hash
          ? { id, status: "duplicate" }
          : { id, status: "error", error: conflict(parsed.data.id) };
      return;
    }
    firstInBatch.set(parsed.data.id, candidate);
    candidates.push(candidate);
  });

  if (candidates.length > 0) {
    await db.prisma.$transaction(async (tx) => {
      const runPks = await ensureRuns(tx, projectId, candidates);
      const accepted = await withoutSecondStarts(tx, runPks, candidates, results);
      const created = await insertEvents(tx, projectId, runPks, accepted);
      const createdIds = new Set(created.map((row) => row.eventId));
      const others = accepted.filter((c) => !createdIds.has(c.event.id));
      const stored = others.length
        ? await tx.event.findMany({
            where: { projectId, eventId: { in: others.map((c) => c.event.id) } },
            select: { eventId: true, contentHash: true },
          })
        : [];
      const storedHash = new Map(stored.map((row) => [row.eventId, row.contentHash]));
      for (const c of accepted) {
        if (createdIds.has(c.event.id)) results[c.index] = { id: c.event.id, status: "created" };
        else if (storedHash.get(c.event.id) === c.hash) results[c.index] = { id: c.event.id, status: "duplicate" };
        else results[c.index] = { id: c.event.id, status: "error", error: conflict(c.event.id) };
      }
      await updateRuns(tx, runPks, accepted.filter((c) => createdIds.has(c.event.id)));
    });
  }

  const summary = { created: 0, duplicate: 0, error: 0 };
  for (const result of results) summary[result.status]++;
  return { results, summary };
}

type Tx = Prisma.TransactionClient;

/** The run rows the events belong to, created on first sight (a run may start with any event). */
async function ensureRuns(tx: Tx, projectId: string, candidates: readonly Candidate[]): Promise<Map<string, string>> {
  const firstAt = new Map<string, number>();
  for (const { event } of candidates) {
    const at = parseInstant(event.ts)!.ms;
    const seen = firstAt.get(event.runId);
    if (seen === undefined || at < seen) firstAt.set(event.runId, at);
  }
  const runIds = [...firstAt.keys()];
  // One round trip each, whatever the number of runs; a concurrent creator of the same run wins
  // harmlessly (ON CONFLICT DO NOTHING), and the SELECT then sees its row.
  await tx.$executeRawUnsafe(
    `INSERT INTO "runs" ("id", "project_id", "run_id", "started_at")
     SELECT i, $1, r, a::timestamptz FROM unnest($2::text[], $3::text[], $4::text[]) AS u(i, r, a)
     ON CONFLICT ("project_id", "run_id") DO NOTHING`,
    projectId,
    runIds.map(() => randomUUID()),
    runIds,
    runIds.map((runId) => new Date(firstAt.get(runId)!).toISOString()),
  );
  const rows = await tx.$queryRawUnsafe<{ id: string; run_id: string }[]>(
    `SELECT "id", "run_id" FROM "runs" WHERE "project_id" = $1 AND "run_id" = ANY($2::text[])`,
    projectId,
    runIds,
  );
  return new Map(rows.map((row) => [row.run_id, row.id]));
}

/**
 * Inserts the events in one statement: arrays bound as nine parameters and unnested, so a batch of
 * 500 costs one round trip. ON CONFLICT DO NOTHING leaves a stored event untouched; RETURNING
 * names the ones this call created.
 */
async function insertEvents(tx: Tx, projectId: string, runPks: Map<string, string>, accepted: readonly Candidate[]) {
  if (accepted.length === 0) return [];
  const columns = {
    runPk: [] as string[], eventId: [] as string[], type: [] as string[], ts: [] as string[], at: [] as string[],
    turn: [] as (number | null)[], body: [] as string[], hash: [] as string[],
  };
  for (const { event, hash } of accepted) {
    columns.runPk.push(runPks.get(event.runId)!);
    columns.eventId.push(event.id);
    columns.type.push(event.type);
    columns.ts.push(event.ts);
    columns.at.push(new Date(parseInstant(event.ts)!.ms).toISOString());
    columns.turn.push(event.turn ?? null);
    columns.body.push(JSON.stringify(event.body));
    columns.hash.push(hash);
  }
  return tx.$queryRawUnsafe<{ eventId: string }[]>(
    `INSERT INTO "events" ("project_id", "run_pk", "event_id", "type", "ts", "at", "turn", "body", "content_hash")
     SELECT $1, r, e, ty, ts, at::timestamptz, tu, b::jsonb, h
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[])
         AS u(r, e, ty, ts, at, tu, b, h)
     ON CONFLICT ("project_id", "event_id") DO NOTHING
     RETURNING "event_id" AS "eventId"`,
    projectId, columns.runPk, columns.eventId, columns.type, columns.ts, columns.at, columns.turn, columns.body, columns.hash,
  );
}

/**
 * A run starts once: a run.started whose run already has one under another id is an error for
 * that event (the stored one stays). A repeat of the same id goes on to the duplicate check.
 */
async function withoutSecondStarts(tx: Tx, runPks: Map<string, string>, candidates: Candidate[], results: TIngestResult[]): Promise<Candidate[]> {
  const starts = candidates.filter((c) => c.event.type === "run.started");
  if (starts.length === 0) return candidates;
  const stored = await tx.event.findMany({
    where: { runPk: { in: starts.map((c) => runPks.get(c.event.runId)!) }, type: "run.started" },
    select: { runPk: true, eventId: true },
  });
  const startOf = new Map(stored.map((row) => [row.runPk, row.eventId]));
  const rejected = new Set<Candidate>();
  for (const c of starts) {
    const runPk = runPks.get(c.event.runId)!;
    const existing = startOf.get(runPk);
    if (existing === undefined) startOf.set(runPk, c.event.id);
    else if (existing !== c.event.id) {
      rejected.add(c);
      results[c.index] = {
        id: c.event.id,
        status: "error",
        error: { path: "type", message: `run ${JSON.stringify(c.event.runId)} already started with event ${JSON.stringify(existing)}; a run has one run.started` },
      };
    }
  }
  return rejected.size ? candidates.filter((c) => !rejected.has(c)) : candidates;
}

/** Keeps each run's summary columns in step with the events just stored (one UPDATE per run). */
async function updateRuns(tx: Tx, runPks: Map<string, string>, created: readonly Candidate[]): Promise<void> {
  const byRun = new Map<string, TEvent[]>();
  for (const { event } of created) {
    const list = byRun.get(event.runId) ?? [];
    list.push(event);
    byRun.set(event.runId, list);
  }
  for (const [runId, events] of byRun) {
    const runPk = runPks.get(runId)!;
    let maxTurn = -1;
    let earliest = Number.POSITIVE_INFINITY;
    for (const event of events) {
      if (event.turn !== undefined) maxTurn = Math.max(maxTurn, event.turn);
      earliest = Math.min(earliest, parseInstant(event.ts)!.ms);
    }
    const started = events.find((e) => e.type === "run.started");
    const ended = events.find((e) => e.type === "run.ended");
    await tx.$executeRaw`
      UPDATE "runs" SET
        "event_count" = "event_count" + ${events.length},
        "max_turn" = CASE WHEN ${maxTurn}::int < 0 THEN "max_turn" ELSE GREATEST(COALESCE("max_turn", -1), ${maxTurn}::int) END,
        "last_event_at" = now(),
        "started_at" = LEAST("started_at", ${new Date(earliest)}::timestamptz)
      WHERE "id" = ${runPk}`;
    if (started?.type === "run.started") {
      await tx.run.update({
        where: { id: runPk },
        data: {
          task: started.body.task,
          agent: started.body.agent ?? null,
          model: started.body.model ?? null,
          startedAt: new Date(parseInstant(started.ts)!.ms),
        },
      });
    }
    if (ended?.type === "run.ended") {
      await tx.run.update({ where: { id: runPk }, data: { status: ended.body.status, endedAt: new Date(parseInstant(ended.ts)!.ms) } });
    }
  }
}

function idOf(raw: unknown): string | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : null;
}

/** The same JSON value (key order aside) gives the same hash. */
function contentHash(raw: unknown): string {
  return createHash("sha256").update(canonicalJson(raw)).digest("hex");
}

function conflict(id: string) {
  return { path: "id", message: `conflict: event ${JSON.stringify(id)} is already stored with other content; the stored event is unchanged` };
}

function firstProblem(problems: { path: string; message: string }[]) {
  const [first, ...rest] = problems;
  const more = rest.length ? ` (and ${rest.map((p) => `${p.path || "(root)"}: ${p.message}`).join("; ")})` : "";
  return { path: first.path, message: `${first.message}${more}` };
}
