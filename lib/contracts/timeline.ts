import { z } from "zod";
import { CONTEXT_PARTS } from "./context-parts";
import { DELIVERY_STATUSES, DENIAL_REASONS, FINDING_CODES } from "./decisions";

/**
 * The run page's timeline (GET …/runs/[runId]/timeline): a trimmed, JSON-safe drawing of a run's
 * rebuilt decisions and events, made by `buildTimeline` (lib/derived/timeline). Four meter charts, each in
 * its own unit and never combined, share one turn axis; beside them the reminders of each meter,
 * a Reviewer lane, a user-notification lane and finding markers.
 *
 * Every turn is a turn number (integer >= 0). Meter values are in the chart's `unit`: `requests`
 * (count of model requests), `min` (minutes of the run's clock, 3 decimals), `bytes` (bytes of the
 * final request), `edits` (count of edits of one block). `bytes`/`freeBytes` of a reminder are
 * bytes whatever its meter (a reminder's cost in the request). Meter charts are thinned; a list
 * of markers (reminders, compactions, Reviewer items, notifications, findings) is complete for the
 * window while it holds at most `maxPoints` items. A longer list is folded per bucket of turns
 * (`lanesFolded`): one item per bucket and kind carries `count` and the turns it spans, so every
 * item is still counted and a dropped reminder or a finding is never hidden; a narrower window
 * (zoom) lists them one by one. See docs/architecture.md, Habit 8.
 */

export const METER_UNITS = ["requests", "min", "bytes", "edits"] as const;
export const ZMeterUnit = z.enum(METER_UNITS);

const ZTurn = z.number().int().min(0);
/** An inclusive range of turns `[first, last]`. */
const ZTurnSpan = z.tuple([ZTurn, ZTurn]);

/** A stage threshold line: stage `stage` is reached when the meter's value >= `value`. */
export const ZThreshold = z.object({
  stage: z.number().int().min(1),
  /** The policy's threshold (a fraction of the denominator, unitless), e.g. 0.75. */
  ratio: z.number(),
  /** The same threshold in the chart's unit (ratio × usable requests, × limit minutes, × capacity bytes, × block limit). */
  value: z.number(),
});

/** One rebuilt turn's reading, in the chart's unit, and the stage it reached there. */
export const ZMeterPoint = z.object({ turn: ZTurn, value: z.number(), stage: z.number().int().min(0) });

export const ZRequestsChart = z.object({
  unit: z.literal("requests"),
  /** The policy's request limit (requests). */
  limit: z.number(),
  /** Requests reserved for final delivery (requests); the band between `usable` and `limit`. */
  reserve: z.number(),
  /** limit − reserve (requests): the denominator of the stage ratio. */
  usable: z.number(),
  thresholds: z.array(ZThreshold),
  /** Requests used so far, per turn. */
  points: z.array(ZMeterPoint),
});

export const ZTimeChart = z.object({
  unit: z.literal("min"),
  /** The policy's time limit (minutes). */
  limit: z.number(),
  thresholds: z.array(ZThreshold),
  /** Elapsed minutes, per turn. */
  points: z.array(ZMeterPoint),
});

/** Folded items only: how many items this one stands for, all on turns from `turn` to `toTurn`. */
const ZFoldedCount = z.number().int().min(1);

/**
 * A `context.compaction` event: the candidate the assembler tried, and whether it was kept. Folded
 * (`count`): the compactions of one outcome from `turn` to `toTurn`, with the largest original and
 * the smallest candidate size among them.
 */
export const ZCompaction = z.object({
  turn: ZTurn,
  toTurn: ZTurn.optional(),
  count: ZFoldedCount.optional(),
  /** Bytes of the request before compaction. */
  originalBytes: z.number(),
  /** Bytes of the compacted candidate (the final request only when adopted, R9). */
  candidateBytes: z.number(),
  outcome: z.enum(["adopted", "rolled_back"]),
});

export const ZContextChart = z.object({
  unit: z.literal("bytes"),
  /** The policy's capacity (bytes) of one request. */
  capacity: z.number(),
  thresholds: z.array(ZThreshold),
  /** Required bytes of the turn's final request (after any compaction was adopted or rolled back). */
  points: z.array(ZMeterPoint),
  /** Every compaction in the window, in run order. */
  compactions: z.array(ZCompaction),
});

/**
 * Contract §11: one turn's final request by part, in bytes: `value` is its requiredBytes (what the
 * stack sums to), each part that was sent is a field of its own (an absent one was not sent), and
 * what the parts leave (`value` minus their sum) is the unattributed rest.
 */
export const ZContextPartsPoint = z.object({
  turn: ZTurn,
  value: z.number(),
  ...(Object.fromEntries(CONTEXT_PARTS.map((part) => [part, z.number().optional()])) as {
    [P in (typeof CONTEXT_PARTS)[number]]: z.ZodOptional<z.ZodNumber>;
  }),
});

/** Contract §11: what filled the final request, turn by turn (bytes), on the window's turns that sent parts. */
export const ZContextPartsChart = z.object({
  unit: z.literal("bytes"),
  /** The parts some point of the window has, in contract order (the stack's order, bottom first). */
  parts: z.array(z.enum(CONTEXT_PARTS)),
  /** The window's rebuilt turns whose final request carried parts, and those whose did not. */
  turnsWithParts: z.number().int().min(0),
  turnsWithoutParts: z.number().int().min(0),
  /** Thinned like a meter series (repeated readings folded; min/max of requiredBytes beyond the budget). */
  points: z.array(ZContextPartsPoint),
});

/** Edits used on one block; `limit` appears only where it differs from the series' `limit`. */
export const ZBlockPoint = ZMeterPoint.extend({ limit: z.number().optional() });

export const ZBlockSeries = z.object({
  blockId: z.string(),
  /** The block's limit (edits) at its last point: its own reported limit, else the policy's perBlockLimit. */
  limit: z.number(),
  /** Thresholds for `limit` (edits). */
  thresholds: z.array(ZThreshold),
  points: z.array(ZBlockPoint),
});

export const ZEditsChart = z.object({
  unit: z.literal("edits"),
  /** The policy's default limit per block (edits). */
  perBlockLimit: z.number(),
  /** The policy's stage thresholds (unitless fractions of a block's limit). */
  stageRatios: z.array(z.number()),
  /** One small series per block with a reading, by blockId in code-point order. */
  blocks: z.array(ZBlockSeries),
});

/**
 * A reminder of one meter on one turn — or, with `toTurn`, the identical reminder on every rebuilt
 * turn from `turn` to `toTurn` (a standing edits state repeats each turn; runs of identical items
 * are folded without loss). The text is left out: the turn panel reads it from the decisions.
 *
 * With `count` (a folded lane, see `lanesFolded`): `count` reminders of this meter, stage and
 * status on rebuilt turns from `turn` to `toTurn`, not necessarily on each; `bytes` is the largest
 * cost among them, `freeBytes` the smallest free space; edits reminders fold per block (`subject`).
 * Review suggestions fold by status alone: their stage is the checkpoint's number, and a folded
 * one keeps the first checkpoint's.
 */
export const ZTimelineReminder = z.object({
  turn: ZTurn,
  /** Last turn of a folded run of identical reminders (inclusive); absent for a single turn. */
  toTurn: ZTurn.optional(),
  count: ZFoldedCount.optional(),
  /** The blockId, on `edits` reminders only (the other keys have no subject). */
  subject: z.string().optional(),
  stage: z.number().int().min(0),
  status: z.enum(DELIVERY_STATUSES),
  /** The reminder's cost in the request (bytes): what it needed to fit. */
  bytes: z.number(),
  /** Only on `dropped`: the free bytes left when it was tried (bytes; may be negative). */
  freeBytes: z.number().optional(),
});

export const ZTimelineReminders = z.object({
  requests: z.array(ZTimelineReminder),
  time: z.array(ZTimelineReminder),
  context: z.array(ZTimelineReminder),
  edits: z.array(ZTimelineReminder),
  review: z.array(ZTimelineReminder),
});

/**
 * The rebuild's own Reviewer candidate on a turn and R13's admission for it. Folded (`count`): the
 * candidates with this admission outcome from `turn` to `toTurn`, the first one's checkpoint, and
 * every denial reason among them.
 */
export const ZRebuiltReviewer = z.object({
  turn: ZTurn,
  toTurn: ZTurn.optional(),
  count: ZFoldedCount.optional(),
  checkpoint: z.number().int(),
  granted: z.boolean(),
  reasons: z.array(z.enum(DENIAL_REASONS)),
});

/** A recorded `reviewer.dispatched` and the span it ran: from `turn` to `doneTurn` (inclusive). */
export const ZReviewerDispatch = z.object({
  dispatchId: z.string(),
  turn: ZTurn,
  /** Turn of the first `reviewer.completed` after it in run order; null = still running at the end. */
  doneTurn: ZTurn.nullable(),
  /** The completion's verdict, when it reported one. */
  verdict: z.string().optional(),
});

/**
 * The recorded chain of one Reviewer candidate, from the reviewer.* events: candidate → admission
 * → dispatch → completion (or cancellation). Items about a candidateId with no `reviewer.candidate`
 * event still form a chain (`turn` null).
 */
export const ZReviewerChain = z.object({
  candidateId: z.string(),
  /** Turn of its `reviewer.candidate` event; null when none was recorded. */
  turn: ZTurn.nullable(),
  checkpoint: z.number().int().nullable(),
  admissions: z.array(z.object({ turn: ZTurn, granted: z.boolean(), reasons: z.array(z.string()) })),
  dispatches: z.array(ZReviewerDispatch),
  /** The first `reviewer.cancelled` of the candidate; absent when it was not cancelled. */
  cancelled: z.object({ turn: ZTurn, reason: z.string() }).optional(),
});

/**
 * The recorded chains of a bucket of turns, counted (a folded lane): chains that start in the
 * bucket (`turn`…`toTurn` spans every item of them) and what their events say.
 */
export const ZReviewerChainBucket = z.object({
  turn: ZTurn,
  toTurn: ZTurn,
  chains: z.number().int().min(1),
  /** Recorded admissions, granted and denied. */
  granted: z.number().int().min(0),
  denied: z.number().int().min(0),
  dispatches: z.number().int().min(0),
  /** Dispatches still running at the end of the run. */
  running: z.number().int().min(0),
  cancelled: z.number().int().min(0),
});

export const ZReviewerLane = z.object({
  /** The policy's review checkpoints (null when the policy has no `review` section). */
  schedule: z.object({ everyTurns: z.number().nullable(), afterMin: z.number().nullable() }).nullable(),
  /** The policy's admission rule (null without a `reviewer` section: no rebuilt candidates then). */
  admission: z.object({ autoReviewAllowed: z.boolean(), minRequestsLeft: z.number() }).nullable(),
  /** What the rules say (R13), per turn with a rebuilt candidate. */
  rebuilt: z.array(ZRebuiltReviewer),
  /** What the agent and runtime recorded, in run order of each chain's first event (empty when folded into `chainBuckets`). */
  chains: z.array(ZReviewerChain),
  /** The recorded chains counted per bucket of turns, when there were too many to list (`lanesFolded`). */
  chainBuckets: z.array(ZReviewerChainBucket).optional(),
  /** `reviewer.completed` events that match no earlier dispatch. */
  strayCompletions: z.array(z.object({ turn: ZTurn, dispatchId: z.string() })),
});

/**
 * A user notification. Folded (`count`): the notifications from `turn` to `toTurn`, `channel` the
 * distinct channels among them (comma-separated) and `message` the first one's message.
 */
export const ZTimelineNotification = z.object({
  turn: ZTurn,
  toTurn: ZTurn.optional(),
  count: ZFoldedCount.optional(),
  channel: z.string(),
  message: z.string(),
});

/** Findings of one code on one turn — or, with `toTurn` (a folded lane), on turns from `turn` to `toTurn`. */
export const ZFindingMarker = z.object({
  turn: ZTurn,
  toTurn: ZTurn.optional(),
  code: z.enum(FINDING_CODES),
  count: z.number().int().min(1),
});

export const ZRunTimeline = z.object({
  runId: z.string(),
  /** First and last rebuilt turn of the whole run (the brush's extent); null when none was rebuilt. */
  runTurnRange: ZTurnSpan.nullable(),
  /** First and last rebuilt turn inside the requested window (the shared axis); null when none. */
  turnRange: ZTurnSpan.nullable(),
  /** The rebuilt turns of the window as inclusive runs of consecutive turn numbers. */
  rebuiltTurns: z.array(ZTurnSpan),
  /** Turns skipped with INCOMPLETE_TURN in the window (no decisions; draw as gaps). */
  skippedTurns: z.array(ZTurn),
  /** How many rebuilt turns the window holds (a meter series has at most one point per rebuilt turn). */
  sourceTurns: z.number().int().min(0),
  /** The point budget each meter series was downsampled to (markers may add to it, see downsample). */
  maxPoints: z.number().int().min(1),
  /**
   * True when some meter series was thinned by min/max buckets (lossy: between kept points the
   * line is an envelope). Folding repeated readings (a point equal to both neighbours) is lossless
   * and happens always, so a series may have fewer points than `sourceTurns` while this is false.
   */
  downsampled: z.boolean(),
  /**
   * True when some list of markers held more than `maxPoints` items and was folded per bucket of
   * turns (items with `count`); absent in timelines stored before folding existed (= false).
   */
  lanesFolded: z.boolean().optional(),
  /** Null when the policy has no section for the meter. */
  requests: ZRequestsChart.nullable(),
  time: ZTimeChart.nullable(),
  context: ZContextChart.nullable(),
  /** Contract §11: absent when no turn of the window sent context parts (every v1 run). */
  contextParts: ZContextPartsChart.optional(),
  edits: ZEditsChart.nullable(),
  reminders: ZTimelineReminders,
  reviewer: ZReviewerLane,
  notifications: z.array(ZTimelineNotification),
  /** Findings tagged with a turn of the window, by turn, then contract §7's order. */
  findings: z.array(ZFindingMarker),
  /** Run-level findings (turn null), e.g. GLOBAL_STOP_ON_LOCAL_QUOTA. */
  runFindings: z.array(z.object({ code: z.enum(FINDING_CODES), count: z.number().int().min(1) })),
});

export type TMeterUnit = z.infer<typeof ZMeterUnit>;
export type TThreshold = z.infer<typeof ZThreshold>;
export type TMeterPoint = z.infer<typeof ZMeterPoint>;
export type TBlockPoint = z.infer<typeof ZBlockPoint>;
export type TRequestsChart = z.infer<typeof ZRequestsChart>;
export type TTimeChart = z.infer<typeof ZTimeChart>;
export type TCompaction = z.infer<typeof ZCompaction>;
export type TContextChart = z.infer<typeof ZContextChart>;
export type TContextPartsPoint = z.infer<typeof ZContextPartsPoint>;
export type TContextPartsChart = z.infer<typeof ZContextPartsChart>;
export type TBlockSeries = z.infer<typeof ZBlockSeries>;
export type TEditsChart = z.infer<typeof ZEditsChart>;
export type TTimelineReminder = z.infer<typeof ZTimelineReminder>;
export type TTimelineReminders = z.infer<typeof ZTimelineReminders>;
export type TRebuiltReviewer = z.infer<typeof ZRebuiltReviewer>;
export type TReviewerDispatch = z.infer<typeof ZReviewerDispatch>;
export type TReviewerChain = z.infer<typeof ZReviewerChain>;
export type TReviewerChainBucket = z.infer<typeof ZReviewerChainBucket>;
export type TReviewerLane = z.infer<typeof ZReviewerLane>;
export type TTimelineNotification = z.infer<typeof ZTimelineNotification>;
export type TFindingMarker = z.infer<typeof ZFindingMarker>;
export type TRunTimeline = z.infer<typeof ZRunTimeline>;
