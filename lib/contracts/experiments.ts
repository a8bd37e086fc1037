import { z } from "zod";
import { ZCopy } from "./copy";
import { MAX_INT4, ZRecordIdParam, ZRunIdParam, zTextParam } from "./params";
import { ZPolicy } from "./policy";
import { ZExperimentName } from "./primitives";
import { ZReminderKey } from "./reminders";

/** An experiment's life (contract §10): arms change only in `draft`; assignment only while `running`. */
export const EXPERIMENT_STATUSES = ["draft", "running", "stopped"] as const;
export const ZExperimentStatus = z.enum(EXPERIMENT_STATUSES);
export type TExperimentStatus = z.infer<typeof ZExperimentStatus>;

/** At most this many arms per experiment. */
export const MAX_EXPERIMENT_ARMS = 20;

const ZVersionRef = z.string().min(1, { error: "expected a saved version's id" }).max(128, { error: "at most 128 characters" });

/** One arm as a product person writes it: its name, weight, planned runs and what it renders with (none: a control). */
export const ZExperimentArmInput = z.object({
  name: ZExperimentName.meta({ description: "Unique in the experiment; the name run.started's `experiment.arm` carries." }),
  weight: z
    .number({ error: "expected an integer >= 0" })
    .int({ error: "expected an integer >= 0" })
    .min(0, { error: "expected an integer >= 0" })
    .max(MAX_INT4, { error: `at most ${MAX_INT4}` })
    .meta({ description: "The arm's share of runs: runs are split in proportion to the weights (contract §10, assignment)." }),
  plannedRuns: z
    .number({ error: "expected an integer >= 1" })
    .int({ error: "expected an integer >= 1" })
    .min(1, { error: "expected an integer >= 1" })
    .max(MAX_INT4, { error: `at most ${MAX_INT4}` })
    .meta({ description: "Ended runs the arm needs before any verdict (fixed horizon)." }),
  copyVersionId: ZVersionRef.optional().meta({ description: "A saved copy version of this project the arm renders with." }),
  policyVersionId: ZVersionRef.optional().meta({
    description: "A saved policy version of this project the arm runs with (a holdout: one whose key section has `remind: false`).",
  }),
});

/** Body of `POST /api/v1/experiments`: a draft. */
export const ZExperimentCreate = z
  .object({
    name: z.string().trim().min(1, { error: "an experiment needs a name" }).max(80, { error: "at most 80 characters" }),
    note: z.string().max(500, { error: "at most 500 characters" }).optional(),
    key: ZReminderKey.meta({ description: "The reminder key the experiment is about (its verdict is on this key's follow-up)." }),
    arms: z
      .array(ZExperimentArmInput)
      .min(2, { error: "an experiment needs at least 2 arms" })
      .max(MAX_EXPERIMENT_ARMS, { error: `at most ${MAX_EXPERIMENT_ARMS} arms` }),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.arms.forEach((arm, i) => {
      if (seen.has(arm.name))
        ctx.addIssue({ code: "custom", message: `two arms are named ${JSON.stringify(arm.name)}`, path: ["arms", i, "name"] });
      seen.add(arm.name);
    });
    if (body.arms.length >= 2 && body.arms.every((arm) => arm.weight === 0))
      ctx.addIssue({ code: "custom", message: "the weights must sum to more than 0", path: ["arms", 0, "weight"] });
  });

/** The experiment's `version` as the caller read it: a write of an older version is refused (409). */
const ZReadVersion = z
  .number({ error: "expected the experiment's version as read" })
  .int({ error: "expected an integer >= 1" })
  .min(1, { error: "expected an integer >= 1" })
  .max(MAX_INT4, { error: `at most ${MAX_INT4}` })
  .meta({ description: "The experiment's `version` as you read it; a write over a newer version is refused with 409." });

/** Body of `PUT /api/v1/experiments/:id`: the whole draft again, with the version it was read at. */
export const ZExperimentUpdate = ZExperimentCreate.safeExtend({ version: ZReadVersion });
/** Body of start, stop and promote: the version the caller read. */
export const ZExperimentVersion = z.object({ version: ZReadVersion });

/** One arm as stored, in the experiment's order (`position` from 0; the first is the control). */
export const ZExperimentArm = z.object({
  position: z.number().int(),
  name: z.string(),
  weight: z.number().int(),
  plannedRuns: z.number().int(),
  copyVersionId: z.string().nullable(),
  policyVersionId: z.string().nullable(),
});

/** An arm with its copy and policy versions' documents: what an SDK renders the arm with (null: the agent's own). */
export const ZResolvedExperimentArm = ZExperimentArm.extend({ copy: ZCopy.nullable(), policy: ZPolicy.nullable() });

const ZExperimentFields = {
  id: z.string(),
  name: z.string(),
  note: z.string().nullable(),
  key: ZReminderKey,
  status: ZExperimentStatus,
  /** Raised by every write: send it back with the next one. */
  version: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
};

/** An experiment in the project's list: its arms as stored. */
export const ZExperimentSummary = z.object({ ...ZExperimentFields, arms: z.array(ZExperimentArm) });
/** `GET /api/v1/experiments`: newest first. */
export const ZExperimentList = z.object({ experiments: z.array(ZExperimentSummary) });
/** One experiment, each arm's copy and policy resolved to their documents. */
export const ZExperiment = z.object({ ...ZExperimentFields, arms: z.array(ZResolvedExperimentArm) });

/** Query of `GET /api/v1/experiments/:id/assignment`. */
export const ZAssignmentQuery = z.object({ runId: ZRunIdParam });

/** Path of `POST /api/v1/experiments/:id/arms/:arm/promote`: the experiment's id and an arm's name. */
export const ZExperimentArmPathParams = z.object({
  id: ZRecordIdParam,
  arm: zTextParam({ max: 200, what: "an arm's name of 1-200 characters" }),
});

/** The arm of a run (contract §10, assignment), with what it renders with. */
export const ZExperimentAssignment = ZResolvedExperimentArm.pick({
  position: true,
  copyVersionId: true,
  policyVersionId: true,
  copy: true,
  policy: true,
}).extend({
  experimentId: z.string(),
  runId: z.string(),
  /** The arm's name: what run.started's `experiment.arm` must carry. */
  arm: z.string(),
});

/** `POST …/arms/:arm/promote`: the experiment after the write, and the project's defaults now. */
export const ZExperimentPromotion = z.object({
  experiment: ZExperiment,
  defaultCopyVersionId: z.string().nullable(),
  defaultPolicyVersionId: z.string().nullable(),
});

export type TExperimentArmInput = z.infer<typeof ZExperimentArmInput>;
export type TExperimentCreate = z.infer<typeof ZExperimentCreate>;
export type TExperimentUpdate = z.infer<typeof ZExperimentUpdate>;
export type TExperimentArm = z.infer<typeof ZExperimentArm>;
export type TResolvedExperimentArm = z.infer<typeof ZResolvedExperimentArm>;
export type TExperimentSummary = z.infer<typeof ZExperimentSummary>;
export type TExperimentList = z.infer<typeof ZExperimentList>;
export type TExperiment = z.infer<typeof ZExperiment>;
export type TExperimentAssignment = z.infer<typeof ZExperimentAssignment>;
export type TExperimentPromotion = z.infer<typeof ZExperimentPromotion>;
