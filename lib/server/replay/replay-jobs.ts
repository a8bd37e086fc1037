import { createHash } from "node:crypto";
import type { TReplayFilters, TReplayJob, TReplayList, TReplayMatching, TReplayRequest, TReplayResult } from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { jsonColumn, replayFiltersColumn, replayResultColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { runFilterWhere } from "@/lib/server/runs/run-filters";
import { getCopyVersion, getPolicyVersion } from "@/lib/server/versions/versions";
import type { TaskThreads } from "@/lib/server/jobs/threads";
import { replayRuns } from "./replay-runs";

type JobRow = NonNullable<Awaited<ReturnType<Database["prisma"]["replayJob"]["findFirst"]>>>;

/**
 * The format of the stored result, part of the inputs' key so a finished job of an older format
 * is never handed back as the answer (2: follow-up per copy and key; 3: changed turns say whether
 * a reminder's fate changed).
 */
const RESULT_FORMAT = 3;

/**
 * Hands a started replay to whoever runs it: the job queue on the server (settles once it is
 * queued), the replay itself in tests (settles when it is over).
 */
export type EnqueueReplay = (projectId: string, replayId: string) => Promise<void>;

/**
 * Starts a what-if replay (or answers with a finished one of the same inputs — same versions, same
 * runs with the same events — so a second look is instant). The work is a queue job
 * (lib/server/jobs): `enqueue` hands it over; `done` is what it answered.
 */
export async function startReplay(
  db: Database,
  caller: Caller,
  request: TReplayRequest,
  enqueue: EnqueueReplay,
): Promise<{ job: TReplayJob; done: Promise<void> }> {
  if (request.copyVersionId) await getCopyVersion(db, caller.projectId, request.copyVersionId);
  if (request.policyVersionId) await getPolicyVersion(db, caller.projectId, request.policyVersionId);
  const runs = await chooseRuns(db, caller.projectId, request.filters, request.maxRuns);
  if (runs.length === 0) throw new DomainError("invalid", "no runs match these filters", "filters");

  const inputKey = createHash("sha256")
    .update(
      JSON.stringify({
        v: RESULT_FORMAT,
        c: request.copyVersionId ?? null,
        p: request.policyVersionId ?? null,
        runs: runs.map((r) => [r.id, r.eventCount]),
      }),
    )
    .digest("hex");
  const earlier = await db.prisma.replayJob.findFirst({
    where: { projectId: caller.projectId, inputKey, status: "done" },
    orderBy: { createdAt: "desc" },
  });
  if (earlier) return { job: toJob(earlier, true), done: Promise.resolve() };

  const row = await db.prisma.replayJob.create({
    data: {
      projectId: caller.projectId,
      copyVersionId: request.copyVersionId ?? null,
      policyVersionId: request.policyVersionId ?? null,
      filters: jsonColumn(request.filters),
      inputKey,
      runPks: runs.map((r) => r.id),
      totalRuns: runs.length,
      totalTurns: runs.reduce((sum, r) => sum + (r.maxTurn === null ? 0 : r.maxTurn + 1), 0),
    },
  });
  const done = enqueue(caller.projectId, row.id).catch(async (error: unknown) => {
    // Nobody will run it: say so rather than leave it "running" for ever.
    await db.prisma.replayJob
      .update({
        where: { projectId_id: { projectId: row.projectId, id: row.id } },
        data: { status: "failed", error: "the replay could not be queued; start it again", finishedAt: new Date() },
      })
      .catch(() => {});
    throw error;
  });
  return { job: toJob(row, false), done };
}

/** The runs a replay with these filters takes: the newest `take` matching started runs. */
function chooseRuns(db: Database, projectId: string, filters: TReplayFilters, take: number) {
  return db.prisma.run.findMany({
    where: runFilterWhere(projectId, filters, { startedOnly: true }),
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take,
    select: { id: true, eventCount: true, maxTurn: true },
  });
}

/**
 * How many runs and turns a replay with these filters would rebuild, before it is started: the
 * same choice of runs as startReplay, counted from the runs' stored highest turn (no event or
 * decision is read; at most `maxRuns + 1` run rows).
 */
export async function countMatchingRuns(
  db: Database,
  projectId: string,
  query: TReplayFilters & { maxRuns: number },
): Promise<TReplayMatching> {
  const { maxRuns, ...filters } = query;
  const runs = await chooseRuns(db, projectId, filters, maxRuns + 1);
  const taken = runs.slice(0, maxRuns);
  return {
    runs: taken.length,
    turns: taken.reduce((sum, r) => sum + (r.maxTurn === null ? 0 : r.maxTurn + 1), 0),
    more: runs.length > maxRuns,
    maxRuns,
  };
}

/** How many recent replays the list shows. */
export const RECENT_REPLAYS = 20;

/** The project's most recent replays, newest first, without their results (not read). */
export async function listReplays(db: Database, projectId: string): Promise<TReplayList> {
  const rows = await db.prisma.replayJob.findMany({
    where: { projectId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RECENT_REPLAYS,
    omit: { result: true },
  });
  return {
    replays: rows.map((row) => {
      const { result: _result, reused: _reused, ...job } = toJob({ ...row, result: null } as JobRow, false);
      return { ...job, error: row.error };
    }),
  };
}

/**
 * The replay job's body (lib/server/jobs/background.ts): replays the job's runs, one at a time on a
 * job thread, storing progress after every run and the result at the end. A retry (the queue's,
 * after a failure or a lost worker) starts the job's runs over. Errors are recorded on the job and
 * thrown on, so the queue retries; once attempts run out, markReplayLost ends it.
 */
export async function runReplayJob(
  db: Database,
  threads: TaskThreads,
  projectId: string,
  replayId: string,
  attempt: number,
): Promise<void> {
  const row = await db.prisma.replayJob.findFirst({ where: { id: replayId, projectId } });
  if (!row || row.status !== "running") return; // cancelled, done or gone meanwhile
  if (row.cancelRequested) {
    await db.prisma.replayJob.update({
      where: { projectId_id: { projectId: row.projectId, id: row.id } },
      data: { status: "cancelled", finishedAt: new Date() },
    });
    return;
  }
  try {
    const [copy, policy] = await Promise.all([
      row.copyVersionId ? getCopyVersion(db, row.projectId, row.copyVersionId).then((v) => v.copy) : undefined,
      row.policyVersionId ? getPolicyVersion(db, row.projectId, row.policyVersionId).then((v) => v.policy) : undefined,
    ]);
    const found = await db.prisma.run.findMany({
      where: { id: { in: row.runPks }, projectId: row.projectId },
      select: { id: true, runId: true, maxTurn: true, eventCount: true },
    });
    const byPk = new Map(found.map((run) => [run.id, run]));
    const runs = row.runPks.flatMap((pk) => byPk.get(pk) ?? []);
    await db.prisma.replayJob.update({
      where: { projectId_id: { projectId: row.projectId, id: row.id } },
      data: { attempts: attempt + 1, doneRuns: 0, doneTurns: 0, error: null, updatedAt: new Date() },
    });
    const result = await replayRuns(db, threads, row.projectId, runs, { copy, policy }, async (progress) => {
      const job = await db.prisma.replayJob.update({
        where: { projectId_id: { projectId: row.projectId, id: row.id } },
        data: { ...progress, updatedAt: new Date() },
      });
      return !job.cancelRequested;
    });
    // Only a job still running ends here: one the queue gave up on meanwhile stays failed.
    await db.prisma.replayJob.updateMany({
      where: { projectId: row.projectId, id: row.id, status: "running" },
      data: result
        ? { status: "done", result: jsonColumn(result), finishedAt: new Date() }
        : { status: "cancelled", finishedAt: new Date() },
    });
  } catch (error) {
    await db.prisma.replayJob
      .update({
        where: { projectId_id: { projectId: row.projectId, id: row.id } },
        data: { attempts: attempt + 1, error: `attempt ${attempt + 1} failed: ${(error as Error).message}`, updatedAt: new Date() },
      })
      .catch(() => {});
    throw error;
  }
}

/** A replay whose every attempt failed or was lost (the queue's dead letter): it ends as failed. */
export async function markReplayLost(db: Database, projectId: string, replayId: string): Promise<void> {
  const row = await db.prisma.replayJob.findFirst({ where: { id: replayId, projectId } });
  if (!row || row.status !== "running") return;
  await db.prisma.replayJob.update({
    where: { projectId_id: { projectId: row.projectId, id: row.id } },
    data: { status: "failed", error: row.error ?? LOST, finishedAt: new Date() },
  });
}

export const LOST = "the replay failed on every attempt (its worker failed or was lost); start it again";

export async function getReplayJob(db: Database, projectId: string, id: string): Promise<TReplayJob> {
  const row = await db.prisma.replayJob.findFirst({ where: { id, projectId } });
  if (!row) throw new DomainError("not_found", `no replay ${JSON.stringify(id)} in this project`, "id");
  return toJob(row, false);
}

/** Asks a running replay to stop after the run it is on. */
export async function cancelReplayJob(db: Database, projectId: string, id: string): Promise<TReplayJob> {
  const row = await db.prisma.replayJob.findFirst({ where: { id, projectId } });
  if (!row) throw new DomainError("not_found", `no replay ${JSON.stringify(id)} in this project`, "id");
  if (row.status !== "running") return toJob(row, false);
  // Not yet picked up by a worker: cancelled here and now (the worker will skip it).
  const data = row.attempts === 0 ? { cancelRequested: true, status: "cancelled", finishedAt: new Date() } : { cancelRequested: true };
  return toJob(await db.prisma.replayJob.update({ where: { projectId_id: { projectId, id } }, data }), false);
}

export const OLD_RESULT_FORMAT = "this replay's result was stored in an older format; start the replay again to see it";

function toJob(row: JobRow, reused: boolean): TReplayJob {
  const { result, error } = storedResult(row);
  return {
    id: row.id,
    status: row.status as TReplayJob["status"],
    copyVersionId: row.copyVersionId,
    policyVersionId: row.policyVersionId,
    filters: replayFiltersColumn(row),
    // Turn counts are bigint columns (a run may have 2^31 turns); their sums stay far below 2^53.
    progress: { totalRuns: row.totalRuns, doneRuns: row.doneRuns, totalTurns: Number(row.totalTurns), doneTurns: Number(row.doneTurns) },
    result,
    error,
    reused,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The stored result when it is of the current format. An older one (follow-up per key only, or
 * changed turns without `fate`) reads as no result, with the status kept and an error saying so.
 * A current one is parsed with its contract (lib/server/db/json-columns.ts).
 */
function storedResult(row: JobRow): { result: TReplayResult | null; error: string | null } {
  const result = replayResultColumn(row);
  if (result === "older format") return { result: null, error: row.error ?? OLD_RESULT_FORMAT };
  return { result, error: row.error };
}
