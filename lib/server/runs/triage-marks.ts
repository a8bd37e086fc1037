import type { TriageMark } from "@/lib/contracts";
import type { Prisma } from "@/lib/server/db/generated/client";

/**
 * The writer of run_triage_marks (a rebuild stores a run's marks with its decisions, in its
 * transaction: lib/server/rebuild/rebuild-run.ts); lib/server/runs/run-triage.ts reads them.
 */

/** At most this many triage marks go into one INSERT. */
const INSERT_MARKS = 50_000;

/** Replaces the run's triage marks from `fromTurn` on (all when null) with `marks`. */
export async function storeTriageMarks(
  tx: Prisma.TransactionClient,
  run: { projectId: string; id: string },
  { fromTurn, marks }: { fromTurn: number | null; marks: readonly TriageMark[] },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `DELETE FROM "run_triage_marks" WHERE "project_id" = $1 AND "run_pk" = $2 AND ($3::int IS NULL OR "turn" >= $3)`,
    run.projectId,
    run.id,
    fromTurn,
  );
  for (let at = 0; at < marks.length; at += INSERT_MARKS) {
    const batch = marks.slice(at, at + INSERT_MARKS);
    await tx.$executeRawUnsafe(
      `INSERT INTO "run_triage_marks" ("project_id", "run_pk", "kind", "turn")
       SELECT $1, $2, u.* FROM unnest($3::text[], $4::int[]) AS u`,
      run.projectId,
      run.id,
      batch.map((m) => m.kind),
      batch.map((m) => m.turn),
    );
  }
}
