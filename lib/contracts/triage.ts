import { z } from "zod";
import { ZTurnParam } from "./params";

/**
 * What the run page's triage bar steps through (docs/architecture.md#run-triage): turns of the
 * rebuilt decisions that a reader looks for first.
 * - `drop`: a turn with at least one reminder dropped for capacity (contract R8);
 * - `finding`: a turn with at least one audit finding (contract §7), run-level findings excluded;
 * - `delivery`: a turn with at least one reminder whose delivery failed or is uncertain (R10).
 */
const ZTurn = z.number().int().min(0);

export const TRIAGE_KINDS = ["drop", "finding", "delivery"] as const;
export const ZTriageKind = z.enum(TRIAGE_KINDS);
export type TTriageKind = z.infer<typeof ZTriageKind>;

/** How many turns of each kind the run's stored rebuild has (turns, not reminders or findings). */
export const ZTriageCounts = z.object({
  drop: z.number().int().min(0),
  finding: z.number().int().min(0),
  delivery: z.number().int().min(0),
});
export type TTriageCounts = z.infer<typeof ZTriageCounts>;

/** One kind's neighbours of the asked turn: the nearest such turn before it and after it (null: none). */
export const ZTriageStep = z.object({
  /** Turns of this kind in the whole run. */
  count: z.number().int().min(0),
  previous: ZTurn.nullable(),
  next: ZTurn.nullable(),
});

/** `GET /api/v1/runs/:runId/triage?turn=N`. */
export const ZTriageQuery = z.object({
  /** The turn to step from; absent: before the first turn (next is the first, previous the last). */
  turn: ZTurnParam.optional(),
});
export type TTriageQuery = z.infer<typeof ZTriageQuery>;

export const ZRunTriage = z.object({
  runId: z.string(),
  /** The turn asked about (null when none was). */
  turn: ZTurn.nullable(),
  /** False while the run has no stored rebuild with triage marks yet (the counts are then 0). */
  ready: z.boolean(),
  steps: z.object({ drop: ZTriageStep, finding: ZTriageStep, delivery: ZTriageStep }),
});
export type TRunTriage = z.infer<typeof ZRunTriage>;

/** One stored triage mark: a turn of one kind. */
export interface TriageMark {
  kind: TTriageKind;
  turn: number;
}
