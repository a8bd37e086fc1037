import { createHash } from "node:crypto";
import type { TReplayFilters, TReplayJob, TReplayList, TReplayMatching, TReplayRequest, TReplayResult } from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { jsonColumn, replayFiltersColumn, replayResultColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { runFilterWhere } from "@/lib/server/runs/run-filters";
import { getCopyVersion, getPolicyVersion } from "@/lib/server/versions/versions";
import type { ReplayClaim } from "@/lib/server/replay/replay-queue";
import type { Threads } from "@/lib/server/jobs/threads";
import type { ReplayTasks } from "./replay-task";
import { replayRuns } from "./replay-runs";

type JobRow = NonNullable<Awaited<ReturnType<Database["prisma"]["replayJob"]["findFirst"]>>>;

/**
 * The format of the stored result, part of the inputs' key so a finished job of an older format
 * is never handed back as the answer (2: follow-up per copy and key; 3: changed turns say whether
 * a reminder's fate changed).
 */
const RESULT_FORMAT = 3;

/**
 * Hands a started replay (its row, queued) to whoever runs it: the server's replay workers (settles
 * once they are told), the replay itself in tests (settles when it is over).
 */
export type EnqueueReplay = (projectId: string, replayId: string) => Promise<void>;

/**
 * Starts a what-if replay, or answers with one of the same inputs — same versions, same runs with
 * the same events: a finished one (so a second look is instant, `reused`) or one queued or at work
 * (so identical requests, however many at once, make one job: a unique index keeps one pending job
 * per project and inputs). The work is a job on the replay queue (lib/server/replay/replay-queue.ts):
 * `enqueue` hands it over; `done` is what it answered.
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
  const data = {
    projectId: caller.projectId,
    copyVersionId: request.copyVersionId ?? null,
    policyVersionId: request.policyVersionId ?? null,
    filters: jsonColumn(request.filters),
    inputKey,
    runPks: runs.map((r) => r.id),
    totalRuns: runs.length,
    totalTurns: runs.reduce((sum, r) => sum + (r.maxTurn === null ? 0 : r.maxTurn + 1), 0),
  };
  let row: JobRow | undefined;
  // An identical job may end between the insert that finds it and the read of it: then look again.
  for (let tries = 0; !row; tries++) {
    const earlier = await db.prisma.replayJob.findFirst({
      where: { projectId: caller.projectId, inputKey, OR: [{ status: "done" }, { status: "running", cancelRequested: false }] },
      orderBy: [{ status: "asc" }, { createdAt: "desc" }], // "done" before "running"
    });
    if (earlier) return { job: toJob(earlier, earlier.status === "done"), done: Promise.resolve() };
    // ON CONFLICT DO NOTHING on the one-pending-per-inputs index: a concurrent identical request won.
    [row] = await db.prisma.replayJob.createManyAndReturn({ data: [data], skipDuplicates: true });
    if (!row && tries >= 5) throw new DomainError("conflict", "identical replays are being started and ended at once; try again");
  }
  const queued = row;
  const done = enqueue(caller.projectId, queued.id).catch(async (error: unknown) => {
    // Nobody will run it: say so rather than leave it "running" for ever (unless a worker took it meanwhile).
    await db.prisma.replayJob
      .updateMany({
        where: { projectId: queued.projectId, id: queued.id, status: "running", heartbeatAt: null },
        data: { status: "failed", error: "the replay could not be queued; start it again", finishedAt: new Date() },
      })
      .catch(() => {});
    throw error;
  });
  return { job: toJob(queued, false), done };
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
 * The body of a replay a worker claimed (lib/server/replay/replay-workers.ts): replays the job's
 * runs, one at a time on a job thread, storing progress every quarter second or so
 * (PROGRESS_EVERY_MS) and the result at the end. Every write is the claim's own (its
 * `worker_token`): once the claim is taken back (its worker was taken as lost, or ran past its
 * limit) the job stops at its next progress write and writes nothing more. A retry starts the job's runs over. An error is thrown on: the worker gives the
 * job back for its retry with the error (lib/server/replay/replay-queue.ts).
 */
export async function runReplayJob(db: Database, threads: Threads<ReplayTasks>, claim: ReplayClaim, lost?: AbortSignal): Promise<void> {
  const { projectId, replayId: id, token: workerToken } = claim;
  const ours = { projectId, id, workerToken, status: "running" };
  const row = await db.prisma.replayJob.findFirst({ where: ours });
  if (!row) return; // taken back, cancelled or gone meanwhile
  if (row.cancelRequested) {
    await db.prisma.replayJob.updateMany({ where: ours, data: { status: "cancelled", finishedAt: new Date() } });
    return;
  }
  const [copy, policy] = await Promise.all([
    row.copyVersionId ? getCopyVersion(db, projectId, row.copyVersionId).then((v) => v.copy) : undefined,
    row.policyVersionId ? getPolicyVersion(db, projectId, row.policyVersionId).then((v) => v.policy) : undefined,
  ]);
  const found = await db.prisma.run.findMany({
    where: { id: { in: row.runPks }, projectId },
    select: { id: true, runId: true, maxTurn: true, eventCount: true },
  });
  const byPk = new Map(found.map((run) => [run.id, run]));
  const runs = row.runPks.flatMap((pk) => byPk.get(pk) ?? []);
  await db.prisma.replayJob.updateMany({ where: ours, data: { doneRuns: 0, doneTurns: 0, error: null, updatedAt: new Date() } });
  let stillOurs = true;
  const result = await replayRuns(db, threads, projectId, runs, { copy, policy }, async (progress) => {
    const updated = await db.prisma.replayJob.updateManyAndReturn({
      where: ours,
      data: { ...progress, updatedAt: new Date() },
      select: { cancelRequested: true },
    });
    stillOurs = updated.length > 0 && !lost?.aborted;
    return stillOurs && !updated[0].cancelRequested;
  });
  if (!stillOurs) return;
  await db.prisma.replayJob.updateMany({
    where: ours,
    data: result ? { status: "done", result: jsonColumn(result), finishedAt: new Date() } : { status: "cancelled", finishedAt: new Date() },
  });
}

export async function getReplayJob(db: Database, projectId: string, id: string): Promise<TReplayJob> {
  const row = await db.prisma.replayJob.findFirst({ where: { id, projectId } });
  if (!row) throw new DomainError("not_found", `no replay ${JSON.stringify(id)} in this project`, "id");
  return toJob(row, false);
}

/** Asks a running replay to stop (at its next progress write, within a run and a quarter second or so). */
export async function cancelReplayJob(db: Database, projectId: string, id: string): Promise<TReplayJob> {
  const row = await db.prisma.replayJob.findFirst({ where: { id, projectId } });
  if (!row) throw new DomainError("not_found", `no replay ${JSON.stringify(id)} in this project`, "id");
  if (row.status !== "running") return toJob(row, false);
  // Queued (no worker has it): cancelled here and now; at work: its worker stops at its next progress write.
  const queued = await db.prisma.replayJob.updateMany({
    where: { projectId, id, status: "running", heartbeatAt: null },
    data: { cancelRequested: true, status: "cancelled", finishedAt: new Date() },
  });
  if (queued.count === 0)
    await db.prisma.replayJob.updateMany({ where: { projectId, id, status: "running" }, data: { cancelRequested: true } });
  return toJob(await db.prisma.replayJob.findFirstOrThrow({ where: { projectId, id } }), false);
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
