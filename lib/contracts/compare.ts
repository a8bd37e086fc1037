import { z } from "zod";
import { ZTurnDecision } from "./decisions";
import { ZRunIdParam, ZTurnParam } from "./params";

/**
 * Run comparison (docs/compare.md): where two runs of a project decided differently, turn by
 * turn. A turn's decision, as compared, is its reminders (key, subject, kind, stage, fate) and its
 * Reviewer candidate and admission; the reminders' wording is not (lib/derived/compare).
 */

export const COMPARE_DIRECTIONS = ["next", "previous", "at"] as const;

/** Query of `GET /api/v1/compare`. */
export const ZCompareQuery = z.object({
  a: ZRunIdParam,
  b: ZRunIdParam,
  /** The turn to step from (next: after it, previous: before it) or to show (at); absent: the first difference. */
  turn: ZTurnParam.optional(),
  direction: z.enum(COMPARE_DIRECTIONS).default("next"),
});
export type TCompareQuery = z.infer<typeof ZCompareQuery>;

/**
 * Query of `GET /api/v1/replay/:id/runs/:runId/compare`: a recorded run (A) against its what-if
 * under a replay job (B), stepped like two runs.
 */
export const ZReplayCompareQuery = ZCompareQuery.pick({ turn: true, direction: true });
export type TReplayCompareQuery = z.infer<typeof ZReplayCompareQuery>;

/** How the two runs' decisions differ on one turn. */
export const TURN_DIFFERENCES = ["same", "only-a", "only-b", "reminders", "reviewer", "reminders-and-reviewer"] as const;
export const ZTurnDifference = z.enum(TURN_DIFFERENCES);

export const ZRunComparison = z.object({
  a: z.string(),
  b: z.string(),
  /** False while either run's stored rebuild predates decision digests (it is being rebuilt): differences are not known yet. */
  ready: z.boolean(),
  /** The turns both runs' decisions cover, compared: from 0 to the earlier of their last rebuilt turns; null when either has none. */
  commonTurns: z.tuple([z.number().int(), z.number().int()]).nullable(),
  /** Each run's last rebuilt turn (null: none). */
  lastTurns: z.object({ a: z.number().int().nullable(), b: z.number().int().nullable() }),
  /** The first turn where their decisions differ; null when they agree on every common turn. */
  first: z.number().int().nullable(),
  /** The turn found: the next or previous difference from `turn`, or `turn` itself (at); null when there is none that way. */
  turn: z.number().int().nullable(),
  /** The two runs' decisions at `turn` (null: that run rebuilt no such turn) and how they differ. */
  decisions: z.object({ a: ZTurnDecision.nullable(), b: ZTurnDecision.nullable(), difference: ZTurnDifference }).nullable(),
});
export type TRunComparison = z.infer<typeof ZRunComparison>;
export type TTurnDifference = z.infer<typeof ZTurnDifference>;
