import { z } from "zod";
import { REMINDER_KEYS } from "./reminders";

/**
 * Experiment results (contract §10): per arm, every measure with its counts and 95% interval, and
 * its difference from the control (the first arm). Served by GET /api/v1/experiments/:id/results
 * from stored sums (experiment_rollups); the page shows exactly these numbers.
 */
export const ZEstimate = z.object({
  value: z.number().nullable().meta({ description: "The estimate; null when it has no denominator (no runs, no reminders)." }),
  low: z.number().nullable().meta({ description: "The 95% interval's lower end; null when it cannot be computed (fewer than 2 runs)." }),
  high: z.number().nullable(),
});

export const MEASURE_KINDS = ["ratio", "share", "mean"] as const;

export const ZMeasure = z.object({
  id: z.string().meta({
    description:
      "`due.<key>`, `followUp.<key>`, `drop.<key>`, `bytesPerTurn`, `findingsPer1000Turns`, `finished`, `outOfRequests`, `outOfTime`, `requestsLeft` or `timeLeftMs`.",
  }),
  label: z.string(),
  kind: z.enum(MEASURE_KINDS).meta({
    description:
      "`ratio`: Σ numerator / Σ denominator over the arm's runs, delta-method interval with the run as the unit; `share`: a share of runs, Wilson interval; `mean`: a mean per run, t interval.",
  }),
  unit: z.string().meta({ description: "What the value counts, e.g. `followed / due reminders`, `bytes / turn`, `requests`, `ms`." }),
  estimate: ZEstimate,
  numerator: z.number().meta({ description: "Σ numerator (ratio), runs with the outcome (share), Σ values (mean)." }),
  denominator: z.number().meta({ description: "Σ denominator (ratio) or runs measured (share, mean)." }),
  runs: z.number().int().meta({ description: "Runs this measure is over." }),
  vsControl: ZEstimate.nullable().meta({ description: "This arm minus the control, with its 95% interval; null for the control itself." }),
});

export const ARM_VERDICTS = ["higher than control", "lower than control", "no difference shown"] as const;

export const ZArmResult = z.object({
  name: z.string(),
  position: z.number().int(),
  weight: z.number().int(),
  plannedRuns: z.number().int(),
  copyVersionId: z.string().nullable(),
  policyVersionId: z.string().nullable(),
  runs: z.number().int().meta({ description: "Ended runs counted in this arm (their arm is their assignment)." }),
  liveRuns: z.number().int().meta({ description: "Runs in this arm that have not ended yet: not in the results." }),
  mismatchedRuns: z.number().int().meta({ description: "Runs that named this arm but whose assignment is another arm: left out." }),
  reachedPlan: z.boolean(),
  measures: z.array(ZMeasure),
});

export const ZExperimentResults = z.object({
  experimentId: z.string(),
  key: z.enum(REMINDER_KEYS),
  status: z.enum(["draft", "running", "stopped"]),
  horizon: z.object({
    reached: z.boolean().meta({ description: "Every arm has its planned number of ended runs (fixed horizon)." }),
    message: z.string(),
  }),
  verdict: z
    .object({
      measure: z.string().meta({ description: "The measure the verdict is on: `due.<key>` of the experiment's key." }),
      level: z.number().meta({ description: "The confidence level of each comparison: 1 − 0.05 / (arms − 1) (Bonferroni)." }),
      arms: z.array(z.object({ arm: z.string(), verdict: z.enum(ARM_VERDICTS), difference: ZEstimate })),
    })
    .nullable()
    .meta({ description: "Null until the horizon is reached: no winner is named early." }),
  unknownArmRuns: z.number().int().meta({ description: "Runs that named an arm this experiment does not have: left out." }),
  arms: z.array(ZArmResult),
});

export type TEstimate = z.infer<typeof ZEstimate>;
export type TMeasure = z.infer<typeof ZMeasure>;
export type TArmResult = z.infer<typeof ZArmResult>;
export type TExperimentResults = z.infer<typeof ZExperimentResults>;
