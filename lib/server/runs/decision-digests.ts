import type { DecisionDigest } from "@/lib/derived/compare/decision-digests";
import type { Prisma } from "@/lib/server/db/generated/client";

/**
 * The writer of run_decision_digests (a rebuild stores a run's digests with its decisions, in its
 * transaction: lib/server/rebuild/rebuild-run.ts); lib/server/compare reads them.
 */
export async function storeDecisionDigests(
  tx: Prisma.TransactionClient,
  run: { projectId: string; id: string },
  { fromBucket, digests }: { fromBucket: number | null; digests: readonly DecisionDigest[] },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `DELETE FROM "run_decision_digests" WHERE "project_id" = $1 AND "run_pk" = $2 AND ($3::int IS NULL OR "bucket" >= $3)`,
    run.projectId,
    run.id,
    fromBucket,
  );
  if (digests.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO "run_decision_digests" ("project_id", "run_pk", "bucket", "digest")
     SELECT $1, $2, u.* FROM unnest($3::int[], $4::text[]) AS u`,
    run.projectId,
    run.id,
    digests.map((d) => d.bucket),
    digests.map((d) => d.digest),
  );
}
