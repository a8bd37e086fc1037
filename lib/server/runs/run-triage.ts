import "server-only";
import { TRIAGE_KINDS, ZTriageCounts, type TRunTriage, type TTriageKind } from "@/lib/contracts";
import type { Database } from "@/lib/server/db";
import { findRun } from "./find-run";

type Row = { kind: TTriageKind; previous: number | null; next: number | null };

/**
 * `GET /api/v1/runs/:runId/triage?turn=N`: for each triage kind (lib/contracts/triage.ts) the
 * nearest marked turn before and after `turn` and how many turns the run has of that kind. Two
 * index lookups per kind on run_triage_marks and one row of run_decisions, however long the run:
 * the marks and counts are stored by the rebuild (lib/server/rebuild/rebuild-run.ts).
 *
 * Without `turn`, "next" is the first marked turn and "previous" the last (stepping from before
 * the run wraps to its end). A run whose stored rebuild predates triage marks answers `ready: false`.
 */
export async function getRunTriage(db: Database, projectId: string, runId: string, turn: number | undefined): Promise<TRunTriage> {
  const run = await findRun(db, projectId, runId);
  const [head, rows] = await Promise.all([
    db.prisma.runDecisionsCache.findUnique({
      where: { projectId_runPk: { projectId, runPk: run.id } },
      select: { triageCounts: true },
    }),
    db.prisma.$queryRawUnsafe<Row[]>(
      `SELECT k."kind",
              (SELECT m."turn" FROM "run_triage_marks" m
                WHERE m."project_id" = $1 AND m."run_pk" = $2 AND m."kind" = k."kind" AND m."turn" < $3
                ORDER BY m."turn" DESC LIMIT 1) AS "previous",
              (SELECT m."turn" FROM "run_triage_marks" m
                WHERE m."project_id" = $1 AND m."run_pk" = $2 AND m."kind" = k."kind" AND m."turn" > $4
                ORDER BY m."turn" LIMIT 1) AS "next"
         FROM unnest($5::text[]) AS k("kind")`,
      projectId,
      run.id,
      // No turn: previous is the last marked turn, next the first.
      turn ?? 2_147_483_647,
      turn ?? -1,
      [...TRIAGE_KINDS],
    ),
  ]);
  const counts = ZTriageCounts.safeParse(head?.triageCounts ?? null);
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  const step = (kind: TTriageKind) => ({
    count: counts.success ? counts.data[kind] : 0,
    previous: byKind.get(kind)?.previous ?? null,
    next: byKind.get(kind)?.next ?? null,
  });
  return {
    runId: run.runId,
    turn: turn ?? null,
    ready: counts.success,
    steps: { drop: step("drop"), finding: step("finding"), delivery: step("delivery") },
  };
}
