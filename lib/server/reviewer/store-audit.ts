import type { ReviewerAudit } from "@/lib/reviewer/audit";
import type { Prisma } from "@/lib/server/db/generated/client";

/** A run without a start stands at the largest bigint in the "most violations" order: first, as in the default order. */
export const NO_START_MS = "9223372036854775807";

/** The run an audit is stored for: its key, its project, and the event count the audit was built from. */
export interface AuditedRun {
  id: string;
  projectId: string;
  eventCount: number;
}

/**
 * Replaces the run's stored Reviewer audit (its rows and its funnel counts) with `audit`, inside the
 * caller's transaction: the rebuild writes it with the run's decisions, so readers never see the
 * decisions of one version of the run beside the audit of another. Rows go in with one statement.
 */
export async function storeRunAudit(tx: Prisma.TransactionClient, run: AuditedRun, audit: ReviewerAudit): Promise<void> {
  await tx.$executeRaw`DELETE FROM "reviewer_rows" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
  if (audit.rows.length > 0) {
    // Each row keeps its finding count and its run's start (as it stands in this transaction) for the
    // audit's "most violations" order (prisma/migrations/20261211000000_reviewer_sorts).
    await tx.$executeRawUnsafe(
      `INSERT INTO "reviewer_rows" ("run_pk", "ordinal", "project_id", "turn", "has_violations", "violation_count", "run_started_ms", "row")
       SELECT $1, u.n - 1, $2, u.t, u.c > 0, u.c, s.ms, u.j
         FROM unnest($3::int[], $4::int[], $5::text[]) WITH ORDINALITY AS u(t, c, j, n)
        CROSS JOIN (SELECT COALESCE((SELECT (extract(epoch FROM r."started_at") * 1000)::bigint FROM "runs" r
                                      WHERE r."project_id" = $2 AND r."id" = $1), ${NO_START_MS}) AS ms) s`,
      run.id,
      run.projectId,
      audit.rows.map((row) => row.turn),
      audit.rows.map((row) => row.findings.length),
      audit.rows.map((row) => JSON.stringify(row)),
    );
  }
  const data = {
    eventCount: run.eventCount,
    counts: audit.funnel,
    violationCounts: audit.violationsFunnel,
    builtAt: new Date(),
  };
  await tx.runReviewerFunnel.upsert({
    where: { projectId_runPk: { projectId: run.projectId, runPk: run.id } },
    create: { projectId: run.projectId, runPk: run.id, ...data },
    update: data,
  });
}

/** Removes the run's stored Reviewer audit (a run whose rebuild failed has none). */
export async function clearRunAudit(tx: Prisma.TransactionClient, run: { id: string; projectId: string }): Promise<void> {
  await tx.$executeRaw`DELETE FROM "reviewer_rows" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
  await tx.$executeRaw`DELETE FROM "run_reviewer_funnels" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
}
