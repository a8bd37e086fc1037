import type { ReviewerAudit } from "@/lib/derived/reviewer/audit";
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
 * The Reviewer audit as it is stored (reviewer_rows, run_reviewer_funnels): each row's turn, its
 * finding count and its JSON text, in the rows' order. The rebuild's job thread makes them (handing
 * thousands of row objects back to the event loop, and writing them as JSON there, would cost the
 * server's thread in proportion to the run).
 */
export interface StoredAudit {
  rows: { turns: number[]; violationCounts: number[]; texts: string[] };
  funnel: ReviewerAudit["funnel"];
  violationsFunnel: ReviewerAudit["violationsFunnel"];
}

/** The stored audit of `audit` (what the job thread hands back). */
export function storedAudit(audit: ReviewerAudit): StoredAudit {
  return {
    rows: {
      turns: audit.rows.map((row) => row.turn),
      violationCounts: audit.rows.map((row) => row.findings.length),
      texts: audit.rows.map((row) => JSON.stringify(row)),
    },
    funnel: audit.funnel,
    violationsFunnel: audit.violationsFunnel,
  };
}

/**
 * Replaces the run's stored Reviewer audit (its rows and its funnel counts) with `audit`, inside the
 * caller's transaction: the rebuild writes it with the run's decisions, so readers never see the
 * decisions of one version of the run beside the audit of another.
 *
 * `stored`: the row texts the run's stored audit holds, by ordinal, when the caller knows them (a
 * resume over the rebuild it made itself, lib/server/rebuild/resume-state.ts). Then only the rows that
 * differ are deleted and inserted, so a live run's batch writes the rows its new turns changed, not
 * the whole run's; without it every row is replaced. Either way the table ends up the same.
 */
export async function storeRunAudit(
  tx: Prisma.TransactionClient,
  run: AuditedRun,
  audit: StoredAudit,
  stored?: readonly string[],
): Promise<void> {
  const { turns, violationCounts, texts } = audit.rows;
  let ordinals: number[];
  if (stored) {
    ordinals = [];
    for (let i = 0; i < texts.length; i++) if (texts[i] !== stored[i]) ordinals.push(i);
    await tx.$executeRawUnsafe(
      `DELETE FROM "reviewer_rows" WHERE "project_id" = $1 AND "run_pk" = $2 AND ("ordinal" = ANY($3::int[]) OR "ordinal" >= $4)`,
      run.projectId,
      run.id,
      ordinals,
      texts.length,
    );
  } else {
    ordinals = texts.map((_, i) => i);
    await tx.$executeRaw`DELETE FROM "reviewer_rows" WHERE "project_id" = ${run.projectId} AND "run_pk" = ${run.id}`;
  }
  if (ordinals.length > 0) {
    // Each row keeps its finding count and its run's start (as it stands in this transaction) for the
    // audit's "most violations" order (prisma/migrations/20261211000000_reviewer_sorts).
    await tx.$executeRawUnsafe(
      `INSERT INTO "reviewer_rows" ("run_pk", "ordinal", "project_id", "turn", "has_violations", "violation_count", "run_started_ms", "row")
       SELECT $1, u.n, $2, u.t, u.c > 0, u.c, s.ms, u.j
         FROM unnest($3::int[], $4::int[], $5::int[], $6::text[]) AS u(n, t, c, j)
        CROSS JOIN (SELECT COALESCE((SELECT (extract(epoch FROM r."started_at") * 1000)::bigint FROM "runs" r
                                      WHERE r."project_id" = $2 AND r."id" = $1), ${NO_START_MS}) AS ms) s`,
      run.id,
      run.projectId,
      ordinals,
      ordinals.map((i) => turns[i]),
      ordinals.map((i) => violationCounts[i]),
      ordinals.map((i) => texts[i]),
    );
  }
  await keepReviews(tx, run);
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

/**
 * A candidate only the rebuild said was due has the review key `t:<turn>`; when the agent's record of
 * it arrives later (the same turn, now `source: "both"`), its key becomes `c:<candidate id>`. Its
 * review moves with it, so a verdict never loses its candidate (docs/reviews.md). Reads the run's
 * reviews of `t:` keys only: none, for almost every run.
 */
async function keepReviews(tx: Prisma.TransactionClient, run: { id: string; projectId: string }): Promise<void> {
  await tx.$executeRaw`
    UPDATE "reviews" rv SET "review_key" = rr."review_key"
      FROM "reviewer_rows" rr
     WHERE rv."project_id" = ${run.projectId} AND rv."run_pk" = ${run.id} AND rv."review_key" LIKE 't:%'
       AND rr."project_id" = rv."project_id" AND rr."run_pk" = rv."run_pk" AND rr."turn" = rv."turn"
       AND rr."review_key" LIKE 'c:%' AND (rr."row"::jsonb ->> 'source') = 'both'
       AND NOT EXISTS (SELECT 1 FROM "reviewer_rows" t
                        WHERE t."project_id" = rv."project_id" AND t."run_pk" = rv."run_pk" AND t."review_key" = rv."review_key")
       AND NOT EXISTS (SELECT 1 FROM "reviews" o
                        WHERE o."project_id" = rv."project_id" AND o."run_pk" = rv."run_pk" AND o."review_key" = rr."review_key")`;
}
