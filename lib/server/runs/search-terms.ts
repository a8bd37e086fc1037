import type { SearchTermRow } from "@/lib/derived/search/search-terms";
import type { Prisma } from "@/lib/server/db/generated/client";

/** The search index rows a rebuild stores: all of them (`fromBucket` null), or those from `fromBucket` on. */
export interface StoredSearchTerms {
  fromBucket: number | null;
  rows: readonly SearchTermRow[];
}

/**
 * The writer of run_search_terms (docs/search.md): a rebuild stores a run's search index with its
 * decisions, in its transaction (lib/server/rebuild/rebuild-run.ts). A full rebuild replaces every
 * row; a resume those of the buckets from `fromBucket` on (through the bucket index), the buckets
 * before it holding only turns it left alone. lib/server/search/run-search.ts reads them.
 */
export async function storeSearchTerms(
  tx: Prisma.TransactionClient,
  run: { projectId: string; id: string },
  { fromBucket, rows }: StoredSearchTerms,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `DELETE FROM "run_search_terms" WHERE "project_id" = $1 AND "run_pk" = $2 AND ($3::int IS NULL OR "bucket" >= $3)`,
    run.projectId,
    run.id,
    fromBucket,
  );
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO "run_search_terms" ("project_id", "run_pk", "bucket", "kind", "term", "folded", "mask")
     SELECT $1, $2, u.* FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u`,
    run.projectId,
    run.id,
    rows.map((r) => r.bucket),
    rows.map((r) => r.kind),
    rows.map((r) => r.term),
    rows.map((r) => r.folded),
    rows.map((r) => r.mask),
  );
}
