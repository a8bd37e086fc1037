import { z } from "zod";
import { ZEstimate } from "./experiment-results";
import { REMINDER_KEYS } from "./reminders";

/**
 * Delivered vs. dropped follow-up and reminder fatigue (contract §10), summed over a window of days
 * from the counts each rebuild stores. Served by GET /api/v1/effectiveness; the pages show exactly
 * these numbers. Association, never effect (R11).
 */
export const ZEffectRow = z.object({
  key: z.enum(REMINDER_KEYS),
  stage: z.number().int().nullable().meta({
    description:
      "The reminder's stage (R2); null for `review`, whose stage is its checkpoint k (R7): its rows take every checkpoint together.",
  }),
  kind: z.enum(["notice", "state", "suggestion"]),
  contextStage: z
    .union([z.number().int(), z.literal("none")])
    .nullable()
    .meta({
      description: "The context meter's stage at the reminder's turn; `none` without a context meter; null: every context stage together.",
    }),
  delivered: z.number().int(),
  deliveredFollowed: z.number().int(),
  dropped: z.number().int(),
  droppedFollowed: z.number().int(),
  deliveredRate: ZEstimate.meta({ description: "deliveredFollowed / delivered with its 95% Wilson interval." }),
  droppedRate: ZEstimate.meta({ description: "droppedFollowed / dropped with its 95% Wilson interval." }),
  difference: ZEstimate.meta({ description: "Delivered minus dropped rate, 95% interval by Newcombe's hybrid score method." }),
});

export const ZFatigueRow = z.object({
  key: z.enum(REMINDER_KEYS),
  deliveries: z.number().int().meta({ description: "Delivered reminders of the key (reminders)." }),
  repeats: z.number().int().meta({ description: "Deliveries of a (key, subject, stage) its run had delivered before (reminders)." }),
  meanTurnsBetweenRepeats: z
    .number()
    .nullable()
    .meta({ description: "Turns from the previous delivery of the same reminder, mean over repeats (turns)." }),
  bytes: z.number().int().meta({ description: "The key's delivered reminder bytes (bytes)." }),
  contextBytes: z.number().int().meta({ description: "Of those, the bytes on turns with a context meter (bytes)." }),
  capacityBytes: z.number().int().meta({ description: "The capacity of the turns with a context meter (bytes)." }),
  capacityShare: z
    .number()
    .nullable()
    .meta({ description: "contextBytes / capacityBytes: the share of request capacity the key's reminders took." }),
  dominatedRuns: z.number().int().meta({ description: "Runs where this key took more than half of the delivered reminder bytes (runs)." }),
  runsWithReminderBytes: z.number().int().meta({ description: "Runs that delivered any reminder bytes (runs)." }),
});

export const ZEffectivenessDayKey = z.object({
  key: z.enum(REMINDER_KEYS),
  delivered: z.number().int(),
  deliveredFollowed: z.number().int(),
  dropped: z.number().int(),
  droppedFollowed: z.number().int(),
  deliveries: z.number().int(),
  repeats: z.number().int(),
  bytes: z.number().int(),
  contextBytes: z.number().int(),
});

export const ZEffectivenessDay = z.object({
  day: z.string(),
  capacityBytes: z.number().int(),
  keys: z.array(ZEffectivenessDayKey),
});

export const ZEffectivenessResponse = z.object({
  tz: z.string(),
  from: z.string(),
  to: z.string(),
  rows: z
    .array(ZEffectRow)
    .meta({ description: "Per key, stage and kind: every context stage together (contextStage null) first, then each context stage." }),
  fatigue: z.array(ZFatigueRow),
  days: z.array(ZEffectivenessDay),
});

/** `GET /api/v1/runs/:runId/effectiveness`: one run's rows and fatigue, from its last rebuild. */
export const ZRunEffectivenessResponse = z.object({
  runId: z.string(),
  /** The rebuild the counts come from covered this many of the run's events; null before its first rebuild (then no rows). */
  rebuiltEvents: z.number().int().nullable(),
  eventCount: z.number().int(),
  rows: z
    .array(ZEffectRow)
    .meta({ description: "Per key, stage and kind: every context stage together (contextStage null) first, then each context stage." }),
  fatigue: z.array(ZFatigueRow).meta({
    description:
      "Per key the run delivered: runsWithReminderBytes is 1 when the run delivered reminder bytes, dominatedRuns 1 when this key took most of them.",
  }),
});

export type TEffectRow = z.infer<typeof ZEffectRow>;
export type TFatigueRow = z.infer<typeof ZFatigueRow>;
export type TEffectivenessDay = z.infer<typeof ZEffectivenessDay>;
export type TEffectivenessResponse = z.infer<typeof ZEffectivenessResponse>;
export type TRunEffectivenessResponse = z.infer<typeof ZRunEffectivenessResponse>;
