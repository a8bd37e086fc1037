import { z } from "zod";
import { ZContextParts } from "./context-parts";
import { ZReminderKey } from "./reminders";

/** Finding codes in the order of contract §7's table (the order findings take within a turn). */
export const FINDING_CODES = [
  "INCOMPLETE_TURN",
  "MISSING_REMINDER",
  "UNEXPECTED_REMINDER",
  "STAGE_MISMATCH",
  "DUPLICATE_REMINDER",
  "MARKED_NOT_SUBMITTED",
  "CONTEXT_FROM_ABANDONED_CANDIDATE",
  "FREE_REQUEST",
  "REMINDER_RESEND",
  "UNCERTAIN_RESENT",
  "DISPATCH_WITHOUT_ADMISSION",
  "CONCURRENT_DISPATCH",
  "ADMISSION_RULE_MISMATCH",
  "CANDIDATE_CANCELLED_BY_DROP",
  "GLOBAL_STOP_ON_LOCAL_QUOTA",
] as const;
export type TFindingCode = (typeof FINDING_CODES)[number];

/**
 * The finding codes that compare the rebuild's decisions with the agent's own record of what it
 * sent (its submitted and marked lists; contract §7 "What is compared"). A what-if replay has no
 * agent that ran with its copy and policy, so these have no meaning there.
 */
export const AGENT_COMPARISON_CODES = [
  "MISSING_REMINDER",
  "UNEXPECTED_REMINDER",
  "STAGE_MISMATCH",
  "DUPLICATE_REMINDER",
  "MARKED_NOT_SUBMITTED",
  "CONTEXT_FROM_ABANDONED_CANDIDATE",
  "UNCERTAIN_RESENT",
] as const satisfies readonly TFindingCode[];

/** The Reviewer findings of contract §7, in its table's order: each is about one candidate or its dispatch. */
export const REVIEWER_FINDING_CODES = [
  "DISPATCH_WITHOUT_ADMISSION",
  "CONCURRENT_DISPATCH",
  "ADMISSION_RULE_MISMATCH",
  "CANDIDATE_CANCELLED_BY_DROP",
] as const satisfies readonly TFindingCode[];

export const DELIVERY_STATUSES = ["delivered", "dropped", "failed", "uncertain", "pending"] as const;
export type TDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** R13's admission denial reasons, in the order R13 lists them (the order a denial gives them). */
export const DENIAL_REASONS = ["auto_review_disabled", "insufficient_budget", "review_in_progress"] as const;
export type TDenialReason = (typeof DENIAL_REASONS)[number];

/**
 * The `reviewer.cancelled` reasons that blame a reminder's fate, which R12 forbids: each makes a
 * CANDIDATE_CANCELLED_BY_DROP finding (contract §7). Any other reason is free text.
 */
export const CANCELLED_BY_DROP_REASONS = ["reminder_dropped", "reminder_not_delivered"] as const;
export type TCancelledByDropReason = (typeof CANCELLED_BY_DROP_REASONS)[number];

/** Whether a cancellation reason blames a dropped or undelivered reminder (CANDIDATE_CANCELLED_BY_DROP). */
export function isCancelledByDrop(reason: string): reason is TCancelledByDropReason {
  return (CANCELLED_BY_DROP_REASONS as readonly string[]).includes(reason);
}

/** A ratio rounded to 4 decimals for output; null when infinite (denominator <= 0). */
const ZRatio = z.number().nullable();

export const ZRequestsMeter = z.object({
  used: z.number(),
  limit: z.number(),
  reserve: z.number(),
  usable: z.number(),
  ratio: ZRatio,
  stage: z.number(),
});
export const ZTimeMeter = z.object({ elapsedMs: z.number(), limitMs: z.number(), ratio: ZRatio, stage: z.number() });
export const ZContextMeter = z.object({
  requiredBytes: z.number(),
  capacityBytes: z.number(),
  ratio: ZRatio,
  stage: z.number(),
});
export const ZBlockMeter = z.object({
  blockId: z.string(),
  used: z.number(),
  limit: z.number(),
  ratio: ZRatio,
  stage: z.number(),
});

export const ZTurnMeters = z.object({
  requests: ZRequestsMeter.optional(),
  time: ZTimeMeter.optional(),
  context: ZContextMeter.optional(),
  edits: z.array(ZBlockMeter).optional(),
});

/** Counts for lists and headers, derived from a run's decisions (stored with the cached decisions). */
export const ZDecisionsSummary = z.object({
  rebuiltTurns: z.number(),
  skippedTurns: z.number(),
  reminders: z.object({ delivered: z.number(), dropped: z.number(), failed: z.number(), uncertain: z.number(), pending: z.number() }),
  findings: z.number(),
  findingsByCode: z.partialRecord(z.enum(FINDING_CODES), z.number()),
  /** The meters of the last rebuilt turn, each in its own unit. */
  lastMeters: ZTurnMeters.nullable(),
});

export type TDecisionsSummary = z.infer<typeof ZDecisionsSummary>;

export const ZReminderDecision = z.object({
  key: ZReminderKey,
  subject: z.string().nullable(),
  kind: z.enum(["notice", "state", "suggestion"]),
  stage: z.number(),
  text: z.string(),
  bytes: z.number(),
  status: z.enum(DELIVERY_STATUSES),
  dropReason: z.literal("capacity").optional(),
  freeBytes: z.number().optional(),
});

export const ZReviewerDecision = z.object({
  candidate: z.object({ checkpoint: z.number() }),
  admission: z.object({ granted: z.boolean(), reasons: z.array(z.enum(DENIAL_REASONS)) }),
});

export const ZTurnDecision = z.object({
  turn: z.number(),
  requiredBytes: z.number(),
  capacityBytes: z.number().nullable(),
  freeBytesAfter: z.number().nullable(),
  /** Contract §11: the turn's last request.final's parts (bytes), only when it carried them. */
  contextParts: ZContextParts.optional(),
  meters: ZTurnMeters,
  reminders: z.array(ZReminderDecision),
  reviewer: ZReviewerDecision.nullable(),
});

export const ZFinding = z.object({
  code: z.enum(FINDING_CODES),
  turn: z.number().nullable(),
  detail: z.string(),
});

/** What `rebuild(events)` returns (contract §6). */
export const ZRunDecisions = z.object({
  runId: z.string(),
  turns: z.array(ZTurnDecision),
  findings: z.array(ZFinding),
});

export type TRequestsMeter = z.infer<typeof ZRequestsMeter>;
export type TTimeMeter = z.infer<typeof ZTimeMeter>;
export type TContextMeter = z.infer<typeof ZContextMeter>;
export type TBlockMeter = z.infer<typeof ZBlockMeter>;
export type TTurnMeters = z.infer<typeof ZTurnMeters>;
export type TReminderDecision = z.infer<typeof ZReminderDecision>;
export type TReviewerDecision = z.infer<typeof ZReviewerDecision>;
export type TTurnDecision = z.infer<typeof ZTurnDecision>;
export type TFinding = z.infer<typeof ZFinding>;
export type TRunDecisions = z.infer<typeof ZRunDecisions>;
