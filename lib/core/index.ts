/**
 * The coordination core: pure TypeScript over validated events (contract §3–§8). Imports only zod
 * (through lib/contracts) and itself; never next, react, Prisma or node built-ins.
 */
export { rebuild, type RebuildOptions } from "./rebuild";
export {
  rebuildWithCheckpoint,
  resumeRebuild,
  resumeRebuildTail,
  resumeBaseOf,
  needsFullRebuild,
  readRebuildCheckpoint,
  ZRebuildCheckpoint,
  REBUILD_CHECKPOINT_VERSION,
  type RebuildCheckpoint,
  type CheckpointedRebuild,
  type ResumeBase,
  type ResumedTail,
} from "./resume";
export { actionsByTurn, followUp, followUpOf, type ActionsByTurn, type FollowUp, type FollowUpItem, type FollowUpStat } from "./follow-up";
export { inRunOrder } from "./run-order";
export { ratioOf, stageOf, outputRatio, percentOf } from "./stages";
export { reviewCheckpoint } from "./checkpoint";
export { DEFAULT_COPY } from "./default-copy";
export { resolveCopy, templateName, pickTemplate, fillTemplate, utf8Length, reminderCost, type TResolvedCopy } from "./render";
export { ReminderRenderer } from "./reminder-renderer";
export { fitDecisions, fitsIn, freeBytesBefore, type Rendered } from "./fit";
export { admit, DispatchTracker } from "./reviewer";
export { EventAudit } from "./event-audit";
export { MeterFacts } from "./facts";
export { compareCodePoints } from "./code-points";
export { canonicalJson, sameJson } from "./canonical";
export { fingerprint } from "./fingerprint";
export { RunInputError, RebuildCheckpointError, type RebuildCheckpointRefusal } from "./errors";
export { readEventLines, formatLineProblem, type LineProblem, type EventLines } from "./event-lines";
export { summarizeDecisions, type DecisionsSummary } from "./summary";
export { requestsValues, timeValues, contextValues, editsValues, reviewValues, type TemplateValues } from "./template-values";
export { assignArm, assignmentPosition, type WeightedArm } from "./experiment-assignment";
