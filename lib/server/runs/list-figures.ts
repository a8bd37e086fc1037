import { turnsToLimit } from "@/lib/alerts/conditions";
import type { TDecisionsSummary, TFindingCode, TRunProjection } from "@/lib/contracts";
import { hasViolations, type ReviewerAudit } from "@/lib/derived/reviewer/audit";
import type { Prisma } from "@/lib/server/db/generated/client";

/**
 * What the runs list sorts and filters on, from a run's stored rebuild: kept on the run's row
 * (`runs.finding_count`, …; prisma/migrations/20261209000000_runs_list_power) so a sort or filter is
 * an index read on one table. The migration fills them the same way from the stored summaries.
 */
export interface RunListFigures {
  findingCount: number;
  droppedCount: number;
  /** dropped / every reminder the rebuild decided; null without reminders. */
  dropRate: number | null;
  /** Reviewer rows that carry a Reviewer finding. */
  reviewerViolations: number;
  /** The finding codes present, sorted. */
  findingCodes: TFindingCode[];
  /**
   * The meters' stages on the last rebuilt turn (R2; edits: its highest block's), null for a meter the
   * policy has not: what alert rules on a live run's meter read (prisma/migrations/20270105000000_alerts).
   */
  meterStages: MeterStages;
  /**
   * Turns from the last rebuilt turn to the requests and time limits at the run's fitted recent pace
   * (its summary's projection, docs/projection.md; 0: reached), null without a projection of the
   * meter or when the pace never reaches it: what "runs out within N turns" alert rules read
   * (prisma/migrations/20270107000100_runs_limit_in).
   */
  limitIn: LimitIn;
}

export type LimitIn = Record<"requests" | "time", number | null>;

export type MeterStages = Record<"requests" | "time" | "context" | "edits", number | null>;

/** The stages of a turn's meters (the run's last rebuilt turn's), each meter on its own. */
export function meterStagesOf(meters: TDecisionsSummary["lastMeters"]): MeterStages {
  const edits = meters?.edits?.length ? Math.max(...meters.edits.map((b) => b.stage)) : null;
  return {
    requests: meters?.requests?.stage ?? null,
    time: meters?.time?.stage ?? null,
    context: meters?.context?.stage ?? null,
    edits,
  };
}

/** Reminders dropped / every reminder decided (each status counted once); null without reminders. */
export function dropRateOf(reminders: TDecisionsSummary["reminders"]): number | null {
  const { delivered, dropped, failed, uncertain, pending } = reminders;
  const total = delivered + dropped + failed + uncertain + pending;
  return total > 0 ? dropped / total : null;
}

export function runListFigures(
  summary: TDecisionsSummary & { projection?: TRunProjection | null },
  audit: Pick<ReviewerAudit, "rows">,
): RunListFigures {
  return {
    findingCount: summary.findings,
    droppedCount: summary.reminders.dropped,
    dropRate: dropRateOf(summary.reminders),
    reviewerViolations: audit.rows.filter(hasViolations).length,
    findingCodes: (Object.entries(summary.findingsByCode) as [TFindingCode, number][])
      .filter(([, n]) => n > 0)
      .map(([code]) => code)
      .sort(),
    meterStages: meterStagesOf(summary.lastMeters),
    limitIn: {
      requests: turnsToLimit(summary.projection, "requests")?.turns ?? null,
      time: turnsToLimit(summary.projection, "time")?.turns ?? null,
    },
  };
}

/**
 * Writes the figures on the run's row (null figures and no codes: the rebuild failed), inside the rebuild's
 * transaction and as its last statement: the row lock it takes (FOR NO KEY UPDATE, like ingest's)
 * is then held only until the commit, and ingest, which takes it after its events are in, never
 * waits on anything this transaction waits for.
 */
export async function storeRunListFigures(
  tx: Prisma.TransactionClient,
  run: { id: string; projectId: string },
  figures: RunListFigures | null,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE "runs" SET "finding_count" = $3, "dropped_count" = $4, "drop_rate" = $5, "reviewer_violations" = $6, "finding_codes" = $7::text[],
            "requests_stage" = $8, "time_stage" = $9, "context_stage" = $10, "edits_stage" = $11,
            "requests_limit_in" = $12, "time_limit_in" = $13
      WHERE "project_id" = $1 AND "id" = $2`,
    run.projectId,
    run.id,
    figures?.findingCount ?? null,
    figures?.droppedCount ?? null,
    figures?.dropRate ?? null,
    figures?.reviewerViolations ?? null,
    figures?.findingCodes ?? [],
    figures?.meterStages.requests ?? null,
    figures?.meterStages.time ?? null,
    figures?.meterStages.context ?? null,
    figures?.meterStages.edits ?? null,
    figures?.limitIn.requests ?? null,
    figures?.limitIn.time ?? null,
  );
}
