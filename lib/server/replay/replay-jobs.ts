import { createHash } from "node:crypto";
import type { TCopy, TPolicy, TReplayJob, TReplayRequest, TReplayResult } from "@/lib/contracts";
import type { Caller } from "@/lib/server/auth/keys";
import type { Database } from "@/lib/server/db";
import { jsonColumn, replayFiltersColumn, replayResultColumn } from "@/lib/server/db/json-columns";
import { DomainError } from "@/lib/server/errors";
import { runFilterWhere } from "@/lib/server/runs/run-filters";
import { getCopyVersion, getPolicyVersion } from "@/lib/server/versions/versions";
import { replayRuns } from "./replay-runs";

type JobRow = NonNullable<Awaited<ReturnType<Database["prisma"]["replayJob"]["findFirst"]>>>;

/**
 * The format of the stored result, part of the inputs' key so a finished job of an older format
 * is never handed back as the answer (2: follow-up per copy and key; 3: changed turns say whether
 * a reminder's fate changed).
 */
const RESULT_FORMAT = 3;

/**
 * Starts a what-if replay (or answers with a finished one of the same inputs — same versions, same
 * runs with the same events — so a second look is instant). The work goes on in this process;
 * `done` settles when it ends (tests await it; the API polls the job).
 */
export async function startReplay(
  db: Database,
  caller: Caller,
  request: TReplayRequest,
): Promise<{ job: TReplayJob; done: Promise<void> }> {
  const copy = request.copyVersionId ? (await getCopyVersion(db, caller.projectId, request.copyVersionId)).copy : undefined;
  const policy = request.policyVersionId ? (await getPolicyVersion(db, caller.projectId, request.policyVersionId)).policy : undefined;
  const runs = await db.prisma.run.findMany({
    where: runFilterWhere(caller.projectId, request.filters, { startedOnly: true }),
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: request.maxRuns,
  });
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
      totalRuns: runs.length,
      totalTurns: runs.reduce((sum, r) => sum + (r.maxTurn === null ? 0 : r.maxTurn + 1), 0),
    },
  });
  const done = work(db, caller.projectId, row.id, runs, { copy, policy });
  return { job: toJob(row, false), done };
}

async function work(
  db: Database,
  projectId: string,
  jobId: string,
  runs: Parameters<typeof replayRuns>[2],
  overrides: { copy?: TCopy; policy?: TPolicy },
): Promise<void> {
  try {
    const result = await replayRuns(db, projectId, runs, overrides, async (progress) => {
      const job = await db.prisma.replayJob.update({
        where: { projectId_id: { projectId, id: jobId } },
        data: { ...progress, updatedAt: new Date() },
      });
      return !job.cancelRequested;
    });
    await db.prisma.replayJob.update({
      where: { projectId_id: { projectId, id: jobId } },
      data: result
        ? { status: "done", result: jsonColumn(result), finishedAt: new Date() }
        : { status: "cancelled", finishedAt: new Date() },
    });
  } catch (error) {
    await db.prisma.replayJob
      .update({
        where: { projectId_id: { projectId, id: jobId } },
        data: { status: "failed", error: (error as Error).message, finishedAt: new Date() },
      })
      .catch(() => {});
  }
}

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
  // A stalled job has nobody to read the request: it is cancelled here and now.
  const data = stalled(row) ? { cancelRequested: true, status: "cancelled", finishedAt: new Date() } : { cancelRequested: true };
  return toJob(await db.prisma.replayJob.update({ where: { projectId_id: { projectId, id } }, data }), false);
}

export const OLD_RESULT_FORMAT = "this replay's result was stored in an older format; start the replay again to see it";

/**
 * A running job reports progress after every run; one silent this long was lost with the process
 * that ran it (a restart): it reads as failed, so nobody waits on it and its page stops polling.
 */
export const STALLED_AFTER_MS = 2 * 60_000;
export const STALLED = "the replay stopped making progress (its server was probably restarted); start it again";

function stalled(row: JobRow): boolean {
  return row.status === "running" && Date.now() - row.updatedAt.getTime() > STALLED_AFTER_MS;
}

function toJob(row: JobRow, reused: boolean): TReplayJob {
  const { result, error } = storedResult(row);
  const lost = stalled(row);
  return {
    id: row.id,
    status: lost ? "failed" : (row.status as TReplayJob["status"]),
    copyVersionId: row.copyVersionId,
    policyVersionId: row.policyVersionId,
    filters: replayFiltersColumn(row),
    progress: { totalRuns: row.totalRuns, doneRuns: row.doneRuns, totalTurns: row.totalTurns, doneTurns: row.doneTurns },
    result,
    error: lost ? STALLED : error,
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
