import type { TrendBucket, TrendVersions } from "@/lib/trends/buckets";
import type { Prisma } from "@/lib/server/db/generated/client";

/** The run buckets are stored for: its key and what the trends filter it by. */
export interface TrendRun {
  id: string;
  projectId: string;
  agent: string | null;
  model: string | null;
  /** The experiment and arm its run.started named (contract §10), null for most runs. */
  experimentId: string | null;
  experimentArm: string | null;
}

/** The buckets a run has stored, when the caller knows them: what they are filed under, and each bucket's counts as JSON text. */
export interface StoredTrendBuckets {
  /** The run's agent, model, copy and policy versions, experiment and arm, joined (bucketsFiling). */
  filing: string;
  counts: ReadonlyMap<number, string>;
}

/** What a run's buckets are filed under besides their time: when it changes, every bucket is replaced. */
export function bucketsFiling(run: TrendRun, versions: TrendVersions): string {
  return JSON.stringify([run.agent, run.model, versions.copyVersion, versions.policyVersion, run.experimentId, run.experimentArm]);
}

/**
 * Replaces the run's stored trend buckets (lib/trends/buckets.ts) with `trends`, inside the caller's
 * transaction: the rebuild writes them with the run's decisions, so the trends never count a run by
 * one rebuild and list it by another. The project's rollups (trend_rollups, which the trends read)
 * follow in the same statements: triggers on trend_buckets subtract the DELETE's rows, add the
 * INSERT's, and add the UPDATE's differences (migrations 20261224000000_trend_rollups and
 * 20261227000200_trend_levels; trend_agent_rollups, trend_policy_rollups and trend_agent_copy_rollups
 * beside it, 20261230000000_trend_rollups_without_policy and 20261231000100_trend_agent_copy_rollups;
 * trend_experiment_rollups and trend_arm_rollups, for a run that names
 * an experiment, 20261229000000_trend_experiment_rollups and 20261231000000_trend_arm_rollups).
 *
 * `stored`: the buckets the run has stored, when the caller knows them (a resume over the rebuild it
 * made itself, lib/server/rebuild/resume-state.ts). Then only the buckets whose counts changed are
 * updated, new ones inserted and gone ones deleted — a live run's batch touches a bucket or two, not
 * the run's every bucket and its rollups, and the rollups get only the keys that changed; without it (or when the run is filed under other versions now)
 * every bucket is replaced. Either way the tables end up the same. Returns the counts as stored.
 */
export async function storeTrendBuckets(
  tx: Prisma.TransactionClient,
  run: TrendRun,
  trends: TrendVersions & { buckets: readonly TrendBucket[] },
  stored?: StoredTrendBuckets,
): Promise<StoredTrendBuckets> {
  const filing = bucketsFiling(run, trends);
  const counts = new Map(trends.buckets.map((b) => [b.bucketMs, JSON.stringify(b.counts)]));
  let write = trends.buckets.map((b) => b.bucketMs);
  if (stored && stored.filing === filing) {
    const changed = write.filter((ms) => stored.counts.has(ms) && stored.counts.get(ms) !== counts.get(ms));
    write = write.filter((ms) => !stored.counts.has(ms));
    const gone = [...stored.counts.keys()].filter((ms) => !counts.has(ms));
    if (changed.length + write.length + gone.length > 0) await lockProjectRollups(tx, run.projectId);
    if (gone.length > 0) {
      await tx.$executeRawUnsafe(
        `DELETE FROM "trend_buckets" WHERE "project_id" = $1 AND "run_pk" = $2
            AND "bucket" = ANY(SELECT to_timestamp(m / 1000.0) FROM unnest($3::float8[]) AS m)`,
        run.projectId,
        run.id,
        gone,
      );
    }
    if (changed.length > 0) {
      // In place: the rollups get each count key's difference (migration 20261227000200_trend_levels).
      const updated = await tx.$executeRawUnsafe(
        `UPDATE "trend_buckets" b SET "counts" = u.c::jsonb FROM unnest($3::float8[], $4::text[]) AS u(ms, c)
          WHERE b."project_id" = $1 AND b."run_pk" = $2 AND b."bucket" = to_timestamp(u.ms / 1000.0)`,
        run.projectId,
        run.id,
        changed,
        changed.map((ms) => counts.get(ms)!),
      );
      if (updated !== changed.length) {
        // `stored` was not what the table holds (a bucket it lists is missing): replace them all.
        await clearTrendBuckets(tx, run);
        write = trends.buckets.map((b) => b.bucketMs);
      }
    }
  } else await clearTrendBuckets(tx, run);
  if (write.length > 0) {
    await tx.$executeRawUnsafe(
      `INSERT INTO "trend_buckets"
         ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "experiment_id", "experiment_arm", "counts")
       SELECT $1, $2, to_timestamp(u.ms / 1000.0), $3, $4, $5, $6, $9, $10, u.c::jsonb FROM unnest($7::float8[], $8::text[]) AS u(ms, c)`,
      run.projectId,
      run.id,
      run.agent,
      run.model,
      trends.copyVersion,
      trends.policyVersion,
      write,
      write.map((ms) => counts.get(ms)!),
      run.experimentId,
      run.experimentId === null ? null : (run.experimentArm ?? ""),
    );
  }
  return { filing, counts };
}

/** Removes the run's stored trend buckets (a run whose rebuild failed has none). */
export async function clearTrendBuckets(tx: Prisma.TransactionClient, run: { id: string; projectId: string }): Promise<void> {
  await lockProjectRollups(tx, run.projectId);
  await tx.$executeRaw`DELETE FROM "trend_buckets" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
}

/** The advisory lock class of a project's trend rollups (the second key is the project's hash). */
const ROLLUP_LOCK = 727074;

/**
 * Until the transaction ends, one writer of the project's trend buckets at a time. The rollup rows
 * are additive (ON CONFLICT DO UPDATE SET n = n + …), so concurrent writers would lose nothing
 * without it; but each writer changes them in several statements (the DELETE's subtraction, the
 * UPDATE's differences, the INSERT's addition), each on a bucket's rows at every level (its quarter,
 * hour, 6-hour block and day), and two runs' rebuilds doing so at once could each hold a row the
 * other needs next (a deadlock, which PostgreSQL would break by failing one rebuild). Taken late in the
 * rebuild's transaction, so it is held only for these statements and the commit.
 */
export async function lockProjectRollups(tx: Prisma.TransactionClient, projectId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${ROLLUP_LOCK}::int, hashtext(${projectId}))::text`;
}
