import { z } from "zod";
import { ZCopy } from "./copy";
import { ZPolicy } from "./policy";
import { checkRequestFinal, ZContextParts } from "./context-parts";
import { ZRecordedReminder } from "./reminders";
import { show, ZCount, ZExperimentName, ZFlag, ZIdentifier, ZText, ZTimestamp, ZTurn, zEnum } from "./primitives";

/** Telemetry format version 1 (contract §4): one schema per event type's body. */
export const BODIES = {
  "run.started": z.object({
    task: ZText.meta({ description: "What the agent was asked to do, shown as the run's title." }),
    agent: ZText.optional().meta({ description: "The agent's name, for filtering runs." }),
    model: ZText.optional().meta({ description: "The model the agent used, for filtering runs." }),
    policy: ZPolicy.meta({ description: "Limits and stage thresholds of the run's meters (contract: policy and copy)." }),
    copy: ZCopy.optional().meta({
      description: "Reminder templates replacing the default copy key by key; absent means the default copy.",
    }),
    experiment: z
      .object({
        id: ZExperimentName.meta({ description: "The experiment's id, as Cuescope shows it." }),
        arm: ZExperimentName.meta({ description: "The name of the arm the run was rendered with: its assignment (contract §10)." }),
      })
      .optional()
      .meta({ description: "The experiment the run takes part in and its arm (an addition to v1: contract §10); absent for most runs." }),
  }),
  "meter.requests": z.object({
    used: ZCount.meta({
      description: "Model requests that consumed budget so far, failed external requests and Reviewer dispatches included.",
    }),
  }),
  "meter.time": z.object({ elapsedMs: ZCount.meta({ description: "Milliseconds since the run started." }) }),
  "block.edited": z.object({
    blockId: ZText.meta({ description: "The published block that was edited." }),
    used: ZCount.meta({ description: "Edits used so far on that block." }),
    limit: ZCount.optional().meta({ description: "The block's own edit limit; holds until another is reported." }),
  }),
  "context.compaction": z.object({
    originalBytes: ZCount.meta({ description: "Request size before compaction, in bytes." }),
    candidateBytes: ZCount.meta({ description: "Size of the compacted candidate, in bytes." }),
    outcome: zEnum(["adopted", "rolled_back"]).meta({ description: "Whether the compacted request replaced the original." }),
  }),
  "request.final": z
    .object({
      requiredBytes: ZCount.meta({ description: "Bytes the final request needs, before reminders are fitted." }),
      providerTokens: ZCount.optional().meta({
        description: "Tokens the model provider reported for the request; only when reported, never estimated.",
      }),
      providerCachedTokens: ZCount.optional().meta({
        description: "Of providerTokens, the tokens the provider read from its prompt cache (tokens; an addition: contract §11).",
      }),
      contextParts: ZContextParts.optional().meta({
        description: "The final request's bytes by part, summing to at most requiredBytes (bytes; an addition: contract §11).",
      }),
    })
    .superRefine(checkRequestFinal),
  "request.submitted": z.object({
    outcome: zEnum(["ok", "failed", "uncertain"]).meta({ description: "Whether the request reached the model." }),
    reminders: z
      .array(ZRecordedReminder, { error: (iss) => `expected an array, got ${show(iss.input)}` })
      .optional()
      .meta({ description: "The reminders the agent itself put in the request." }),
    countsAgainstBudget: ZFlag.default(true).meta({ description: "Whether the request used the requests budget." }),
    purpose: zEnum(["turn", "retry", "reminder_resend"]).optional().meta({ description: "Why the request was sent." }),
  }),
  "reminders.marked": z.object({
    reminders: z
      .array(ZRecordedReminder, { error: (iss) => `expected an array, got ${show(iss.input)}` })
      .meta({ description: "What the agent's own ledger marked as delivered." }),
  }),
  "reviewer.candidate": z.object({
    candidateId: ZText.meta({ description: "The agent coordinator's id for the candidate." }),
    checkpoint: ZCount.optional().meta({ description: "The review checkpoint that raised it, when one did." }),
  }),
  "reviewer.admission": z.object({
    candidateId: ZText.meta({ description: "The candidate decided on." }),
    granted: ZFlag.meta({ description: "Whether the runtime admitted the candidate." }),
    reasons: z
      .array(ZText, { error: (iss) => `expected an array of strings, got ${show(iss.input)}` })
      .meta({ description: "The runtime's reasons for its decision." }),
  }),
  "reviewer.dispatched": z.object({
    candidateId: ZText.meta({ description: "The admitted candidate." }),
    dispatchId: ZText.meta({ description: "The runtime's id for the Reviewer dispatch." }),
  }),
  "reviewer.completed": z.object({
    dispatchId: ZText.meta({ description: "The dispatch that completed." }),
    verdict: ZText.optional().meta({ description: "The Reviewer's verdict, free text." }),
    notes: ZText.optional().meta({ description: "The Reviewer's notes." }),
  }),
  "reviewer.cancelled": z.object({
    candidateId: ZText.meta({ description: "The candidate withdrawn." }),
    reason: ZText.meta({ description: "Why it was withdrawn." }),
  }),
  "user.notified": z.object({
    channel: ZText.meta({ description: "Where the user was told (email, chat…)." }),
    message: ZText.meta({ description: "What the user was told." }),
  }),
  "model.action": z.object({
    kind: zEnum(["tool_call", "edit_block", "append_block", "review_objectives", "check_evidence", "finalize", "other"]).meta({
      description: "What the model did after the request.",
    }),
    blockId: ZText.optional().meta({ description: "The block acted on, for edit_block and append_block." }),
  }),
  "run.ended": z.object({
    status: zEnum(["completed", "failed", "stopped"]).meta({ description: "How the run ended." }),
    reason: ZText.optional().meta({ description: "Why it ended that way." }),
  }),
} as const;

export type TEventType = keyof typeof BODIES;
export const EVENT_TYPES = Object.keys(BODIES) as TEventType[];

/** Types that belong to the run as a whole: `turn` is allowed on them and ignored. */
export const RUN_LEVEL_TYPES = ["run.started", "run.ended"] as const;

function zEnvelope<T extends TEventType>(type: T) {
  return z.object({
    id: ZIdentifier.meta({ description: "Unique within the project; ids should sort in emission order (counters, ULIDs)." }),
    runId: ZIdentifier.meta({ description: "The run the event belongs to." }),
    type: z.literal(type),
    ts: ZTimestamp.meta({ description: "When it happened, RFC 3339 with a zone; compared as an instant." }),
    body: BODIES[type].meta({ description: `The fields of a ${type} event.` }) as (typeof BODIES)[T],
  });
}

/** An event of a turn: `turn` is required. */
function zTurnEvent<T extends TurnEventType>(type: T) {
  return zEnvelope(type).extend({ turn: ZTurn.meta({ description: "The turn the event belongs to, from 0." }) });
}

/** run.started / run.ended: `turn` is allowed and ignored. */
function zRunEvent<T extends RunEventType>(type: T) {
  return zEnvelope(type).extend({
    turn: z
      .unknown()
      .optional()
      .transform((): undefined => undefined)
      .meta({ description: "Allowed and ignored on run.started and run.ended." }),
  });
}

type RunEventType = (typeof RUN_LEVEL_TYPES)[number];
type TurnEventType = Exclude<TEventType, RunEventType>;
type EventSchemas = { [T in TurnEventType]: ReturnType<typeof zTurnEvent<T>> } & {
  [T in RunEventType]: ReturnType<typeof zRunEvent<T>>;
};
const isRunLevel = (type: TEventType): type is RunEventType => (RUN_LEVEL_TYPES as readonly string[]).includes(type);
const EVENT_SCHEMAS = Object.fromEntries(
  EVENT_TYPES.map((t) => [t, isRunLevel(t) ? zRunEvent(t) : zTurnEvent(t)]),
) as unknown as EventSchemas;

/** Any telemetry event: the envelope plus the body of its type. Unknown extra properties are dropped. */
export const ZEvent = z.discriminatedUnion(
  "type",
  EVENT_TYPES.map((t) => EVENT_SCHEMAS[t]) as unknown as [EventSchemas[TEventType], ...EventSchemas[TEventType][]],
  {
    error: (iss) =>
      iss.code === "invalid_union"
        ? `unknown event type ${show((iss.input as { type?: unknown } | undefined)?.type)} (expected one of ${EVENT_TYPES.join(", ")})`
        : `expected an event object, got ${show(iss.input)}`,
  },
);

export type TEvent = z.infer<typeof ZEvent>;
export type TEventOf<T extends TEventType> = Extract<TEvent, { type: T }>;
/** An event tagged with a turn (every type but run.started and run.ended). */
export type TTurnEvent = Exclude<TEvent, { type: (typeof RUN_LEVEL_TYPES)[number] }>;
