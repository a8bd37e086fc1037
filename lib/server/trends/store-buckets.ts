import type { TrendBucket, TrendVersions } from "@/lib/trends/buckets";
import type { Prisma } from "@/lib/server/db/generated/client";

/** The run buckets are stored for: its key and what the trends filter it by. */
export interface TrendRun {
  id: string;
  projectId: string;
  agent: string | null;
  model: string | null;
}

/**
 * Replaces the run's stored trend buckets (lib/trends/buckets.ts) with `trends`, inside the caller's
 * transaction: the rebuild writes them with the run's decisions, so the trends never count a run by
 * one rebuild and list it by another. The buckets go in with one statement.
 */
export async function storeTrendBuckets(
  tx: Prisma.TransactionClient,
  run: TrendRun,
  trends: TrendVersions & { buckets: readonly TrendBucket[] },
): Promise<void> {
  await clearTrendBuckets(tx, run);
  if (trends.buckets.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO "trend_buckets" ("project_id", "run_pk", "bucket", "agent", "model", "copy_version", "policy_version", "counts")
     SELECT $1, $2, to_timestamp(u.ms / 1000.0), $3, $4, $5, $6, u.c::jsonb FROM unnest($7::float8[], $8::text[]) AS u(ms, c)`,
    run.projectId,
    run.id,
    run.agent,
    run.model,
    trends.copyVersion,
    trends.policyVersion,
    trends.buckets.map((b) => b.bucketMs),
    trends.buckets.map((b) => JSON.stringify(b.counts)),
  );
}

/** Removes the run's stored trend buckets (a run whose rebuild failed has none). */
export async function clearTrendBuckets(tx: Prisma.TransactionClient, run: { id: string; projectId: string }): Promise<void> {
  await tx.$executeRaw`DELETE FROM "trend_buckets" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
}
