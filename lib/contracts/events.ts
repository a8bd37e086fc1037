import { z } from "zod";
import { ZCopy } from "./copy";
import { ZPolicy } from "./policy";
import { ZRecordedReminder } from "./reminders";
import { show, ZCount, ZFlag, ZIdentifier, ZText, ZTimestamp, ZTurn, zEnum } from "./primitives";

/** Telemetry format version 1 (contract §4): one schema per event type's body. */
export const BODIES = {
  "run.started": z.object({
    task: ZText,
    agent: ZText.optional(),
    model: ZText.optional(),
    policy: ZPolicy,
    copy: ZCopy.optional(),
  }),
  "meter.requests": z.object({ used: ZCount }),
  "meter.time": z.object({ elapsedMs: ZCount }),
  "block.edited": z.object({ blockId: ZText, used: ZCount, limit: ZCount.optional() }),
  "context.compaction": z.object({
    originalBytes: ZCount,
    candidateBytes: ZCount,
    outcome: zEnum(["adopted", "rolled_back"]),
  }),
  "request.final": z.object({ requiredBytes: ZCount, providerTokens: ZCount.optional() }),
  "request.submitted": z.object({
    outcome: zEnum(["ok", "failed", "uncertain"]),
    reminders: z.array(ZRecordedReminder, { error: (iss) => `expected an array, got ${show(iss.input)}` }).optional(),
    countsAgainstBudget: ZFlag.default(true),
    purpose: zEnum(["turn", "retry", "reminder_resend"]).optional(),
  }),
  "reminders.marked": z.object({
    reminders: z.array(ZRecordedReminder, { error: (iss) => `expected an array, got ${show(iss.input)}` }),
  }),
  "reviewer.candidate": z.object({ candidateId: ZText, checkpoint: ZCount.optional() }),
  "reviewer.admission": z.object({
    candidateId: ZText,
    granted: ZFlag,
    reasons: z.array(ZText, { error: (iss) => `expected an array of strings, got ${show(iss.input)}` }),
  }),
  "reviewer.dispatched": z.object({ candidateId: ZText, dispatchId: ZText }),
  "reviewer.completed": z.object({ dispatchId: ZText, verdict: ZText.optional(), notes: ZText.optional() }),
  "reviewer.cancelled": z.object({ candidateId: ZText, reason: ZText }),
  "user.notified": z.object({ channel: ZText, message: ZText }),
  "model.action": z.object({
    kind: zEnum(["tool_call", "edit_block", "append_block", "review_objectives", "check_evidence", "finalize", "other"]),
    blockId: ZText.optional(),
  }),
  "run.ended": z.object({ status: zEnum(["completed", "failed", "stopped"]), reason: ZText.optional() }),
} as const;

export type TEventType = keyof typeof BODIES;
export const EVENT_TYPES = Object.keys(BODIES) as TEventType[];

/** Types that belong to the run as a whole: `turn` is allowed on them and ignored. */
export const RUN_LEVEL_TYPES = ["run.started", "run.ended"] as const;

function zEnvelope<T extends TEventType>(type: T) {
  return z.object({ id: ZIdentifier, runId: ZIdentifier, type: z.literal(type), ts: ZTimestamp, body: BODIES[type] });
}

/** An event of a turn: `turn` is required. */
function zTurnEvent<T extends TurnEventType>(type: T) {
  return zEnvelope(type).extend({ turn: ZTurn });
}

/** run.started / run.ended: `turn` is allowed and ignored. */
function zRunEvent<T extends RunEventType>(type: T) {
  return zEnvelope(type).extend({
    turn: z
      .unknown()
      .optional()
      .transform((): undefined => undefined),
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
