import type { Database } from "@/lib/server/db";

/**
 * The queue of what-if replays is the `replay_jobs` table itself (migration 20261223000000_replay_queue):
 * a row with status `running` is queued while its `heartbeat_at` is null and at work once a worker
 * claimed it. Three rules live in the database, so they hold across every worker process:
 *
 * - **Fair across projects.** A worker claims the queued replay of the project whose latest replay
 *   started longest ago (never started: first), oldest first within a project, and never one of a
 *   project that already has a replay at work (a unique partial index makes that hold under races).
 *   Only a project's oldest due replay is a candidate: a worker that finds it being claimed by
 *   another passes the project by rather than taking its next one out of order.
 *   So one project's backlog of replays takes turns with the others' instead of going first.
 * - **Alive or taken back.** The worker marks its replay alive (`heartbeat_at`) every few seconds; a
 *   sweep takes back a replay whose mark is older than CUESCOPE_REPLAY_LOST_S (its worker died) or
 *   whose attempt passed its `expires_at` (CUESCOPE_REPLAY_EXPIRE_S, read by the worker when it
 *   claims it, not when the replay was queued): retried while attempts are left, else failed, with
 *   the reason in `error`. A taken-back worker's writes no longer match its `worker_token`.
 * - **No duplicates.** One pending replay per project and inputs (startReplay, lib/server/replay).
 */

/** Attempts a replay gets: the first and two retries. */
export const REPLAY_ATTEMPTS = 3;

/** A replay a worker claimed: its keys, the claim's token and which attempt this is (1 = the first). */
export interface ReplayClaim {
  projectId: string;
  replayId: string;
  token: string;
  attempt: number;
}

type ClaimRow = { project_id: string; id: string; attempts: number };

/**
 * Claims the next queued replay, fairly across projects (above), for `expireS` seconds at most;
 * null when none is due or another worker got there first. `only` claims that replay or none, its
 * project's older queued replays notwithstanding (tests). The conditions on `q` are repeated outside
 * the heads' subquery: they are what PostgreSQL checks again on a row another worker changed meanwhile.
 */
export async function claimReplay(
  db: Database,
  token: string,
  expireS: number,
  only?: { projectId: string; replayId: string },
): Promise<ReplayClaim | null> {
  const { rows } = await db.executeSql(
    `UPDATE replay_jobs AS j
        SET heartbeat_at = now(), started_at = now(), worker_token = $1, attempts = j.attempts + 1,
            expires_at = now() + make_interval(secs => $2::float8), updated_at = now()
       FROM (SELECT q.project_id, q.id FROM replay_jobs AS q
               JOIN (SELECT DISTINCT ON (h.project_id) h.project_id, h.id FROM replay_jobs AS h
                      WHERE h.status = 'running' AND h.heartbeat_at IS NULL AND h.run_after <= now()
                        AND ($3::text IS NULL OR (h.project_id = $3::text AND h.id = $4::text))
                      ORDER BY h.project_id, h.created_at, h.id) AS head
                 ON head.project_id = q.project_id AND head.id = q.id
              WHERE q.status = 'running' AND q.heartbeat_at IS NULL AND q.run_after <= now()
                AND NOT EXISTS (SELECT 1 FROM replay_jobs AS w
                                 WHERE w.project_id = q.project_id AND w.status = 'running' AND w.heartbeat_at IS NOT NULL)
              ORDER BY (SELECT max(p.started_at) FROM replay_jobs AS p WHERE p.project_id = q.project_id) ASC NULLS FIRST,
                       q.created_at, q.id
              LIMIT 1
              FOR UPDATE OF q SKIP LOCKED) AS pick
      WHERE j.project_id = pick.project_id AND j.id = pick.id
     RETURNING j.project_id, j.id, j.attempts`,
    [token, expireS, only?.projectId ?? null, only?.replayId ?? null],
  );
  const row = rows[0] as ClaimRow | undefined;
  return row ? { projectId: row.project_id, replayId: row.id, token, attempt: row.attempts } : null;
}

/** Marks the claimed replay alive; false when the claim was taken back (or the replay ended). */
export async function beatReplay(db: Database, claim: ReplayClaim): Promise<boolean> {
  const { rows } = await db.executeSql(
    `UPDATE replay_jobs SET heartbeat_at = now()
      WHERE project_id = $1 AND id = $2 AND worker_token = $3 AND status = 'running' AND heartbeat_at IS NOT NULL
     RETURNING id`,
    [claim.projectId, claim.replayId, claim.token],
  );
  return rows.length > 0;
}

/**
 * Gives back a claimed replay whose attempt failed with `error`: queued again after `retryDelayS`
 * while attempts are left, else failed (cancelled, if its cancellation was asked for).
 */
export async function releaseReplay(db: Database, claim: ReplayClaim, error: string, retryDelayS: number): Promise<void> {
  await db.executeSql(
    `UPDATE replay_jobs SET ${takeBack("$5", "$6")},
            error = $4::text || CASE WHEN cancel_requested THEN '' WHEN attempts >= $5::int THEN '; no attempt left: start the replay again' ELSE '; retrying' END
      WHERE project_id = $1 AND id = $2 AND worker_token = $3 AND status = 'running' AND heartbeat_at IS NOT NULL`,
    [claim.projectId, claim.replayId, claim.token, `attempt ${claim.attempt} failed: ${error}`, REPLAY_ATTEMPTS, retryDelayS],
  );
}

/** What a replay taken back from its worker is set to, given the parameters holding the attempts allowed and the retry delay (s). */
function takeBack(attempts: string, delayS: string): string {
  return `heartbeat_at = NULL, worker_token = NULL, updated_at = now(),
    run_after = now() + make_interval(secs => ${delayS}::float8),
    status = CASE WHEN cancel_requested THEN 'cancelled' WHEN attempts >= ${attempts}::int THEN 'failed' ELSE 'running' END,
    finished_at = CASE WHEN cancel_requested OR attempts >= ${attempts}::int THEN now() END`;
}

/**
 * Takes back every replay at work whose worker sent no heartbeat for `lostS` seconds, or whose
 * attempt ran past its `expires_at`, saying which in its error. Returns the replays taken back.
 */
export async function sweepReplays(
  db: Database,
  /** `restart`: the process that owned the embedded database starts again, so every replay at work is lost (lostS 0). */
  options: { lostS: number; retryDelayS: number; restart?: boolean },
): Promise<{ projectId: string; replayId: string; error: string }[]> {
  const { rows } = await db.executeSql(
    `UPDATE replay_jobs SET ${takeBack("$3", "$4")},
            error = 'attempt ' || attempts || CASE
              WHEN expires_at <= now() THEN ' ran longer than its limit of '
                || round(extract(epoch FROM expires_at - started_at))::text || ' s (CUESCOPE_REPLAY_EXPIRE_S)'
              ELSE ' was lost: ' || $2::text END
              || CASE WHEN cancel_requested THEN '' WHEN attempts >= $3::int THEN '; no attempt left: start the replay again' ELSE '; retrying' END
      WHERE status = 'running' AND heartbeat_at IS NOT NULL
        AND (heartbeat_at <= now() - make_interval(secs => $1::float8) OR expires_at <= now())
     RETURNING project_id, id, error`,
    [
      options.lostS,
      options.restart
        ? "it was at work when the process that owns the embedded database stopped"
        : `its worker sent no heartbeat for over ${Math.round(options.lostS * 1000) / 1000} s (CUESCOPE_REPLAY_LOST_S)`,
      REPLAY_ATTEMPTS,
      options.retryDelayS,
    ],
  );
  return (rows as { project_id: string; id: string; error: string }[]).map((r) => ({
    projectId: r.project_id,
    replayId: r.id,
    error: r.error,
  }));
}
