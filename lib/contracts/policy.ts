import { z } from "zod";
import { show, ZCount, ZFlag, ZPositiveInt } from "./primitives";

/** Ascending stage thresholds: non-empty, strictly ascending, every value > 0 (contract §5). */
export const ZStages = z
  .array(
    z.number({ error: (iss) => `expected number > 0, got ${show(iss.input)}` }).gt(0, {
      error: (iss) => `expected number > 0, got ${show(iss.input)}`,
    }),
    { error: (iss) => `expected a non-empty array of numbers, got ${show(iss.input)}` },
  )
  .min(1, { error: "expected at least one stage threshold" })
  .superRefine((stages, ctx) => {
    for (let i = 1; i < stages.length; i++) {
      if (!(stages[i] > stages[i - 1])) {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `stages must be strictly ascending: ${stages[i]} does not exceed ${stages[i - 1]}`,
          input: stages[i],
        });
      }
    }
  });

/**
 * `remind: false` keeps the meter measured but makes no reminders of its key: an experiment's
 * holdout (contract §10, an addition to §5). Absent means true; no default is filled in, so a
 * policy without it keeps its form and fingerprint.
 */
const remind = ZFlag.optional().meta({
  description: "false: the meter is measured and its stage shown, but no reminders of this key are made (a holdout).",
});

export const ZRequestsPolicy = z.object({
  limit: ZCount,
  deliveryReserve: ZCount.default(0),
  stages: ZStages,
  remind,
});

export const ZTimePolicy = z.object({ limitMs: ZPositiveInt, stages: ZStages, remind });

export const ZContextPolicy = z.object({ capacityBytes: ZPositiveInt, stages: ZStages, remind });

export const ZEditsPolicy = z.object({ perBlockLimit: ZCount, stages: ZStages, remind });

export const ZReviewPolicy = z.object({
  everyTurns: ZPositiveInt.optional(),
  afterMs: ZPositiveInt.optional(),
  remind,
});

export const ZReviewerPolicy = z.object({
  autoReviewAllowed: ZFlag.default(false),
  minRequestsLeft: ZCount.default(0),
});

/** A run's policy: every section optional; a missing section switches that meter off. */
export const ZPolicy = z.object(
  {
    requests: ZRequestsPolicy.optional(),
    time: ZTimePolicy.optional(),
    context: ZContextPolicy.optional(),
    edits: ZEditsPolicy.optional(),
    review: ZReviewPolicy.optional(),
    reviewer: ZReviewerPolicy.optional(),
  },
  { error: (iss) => `expected a policy object, got ${show(iss.input)}` },
);

export type TPolicy = z.infer<typeof ZPolicy>;
/** A policy as written, before defaults are filled in. */
export type TPolicyInput = z.input<typeof ZPolicy>;
