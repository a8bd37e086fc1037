import { z } from "zod";
import { FINDING_CODES, ZFinding, ZTurnDecision, ZTurnMeters } from "./decisions";
import { ZPolicy } from "./policy";
import { ZCopy } from "./copy";
import { ZProjectedMeter, ZRunProjection, ZRunProjectionCheck } from "./projection";
import { MAX_INT4, ZCursorParam, ZFlagParam, ZNameParam, ZInstantParam, ZRunIdParam, ZTurnParam, zIntParam, zTextParam } from "./params";

/** Limits of one ingestion request. */
export const MAX_BATCH_EVENTS = 1000;
export const MAX_BATCH_BYTES = 5 * 1024 * 1024;

/** Body of `POST /api/v1/ingest`: events are validated one by one, so a bad one loses no good one. */
export const ZIngestRequest = z.object({
  batch: z
    .array(z.unknown(), { error: "expected an array of events in `batch`" })
    .max(MAX_BATCH_EVENTS, { error: `a batch holds at most ${MAX_BATCH_EVENTS} events` }),
});

export const ZProblemDto = z.object({ path: z.string(), message: z.string() });

export const ZIngestResult = z.object({
  id: z.string().nullable(),
  status: z.enum(["created", "duplicate", "error"]),
  error: ZProblemDto.optional(),
});

export const ZIngestResponse = z.object({
  results: z.array(ZIngestResult),
  summary: z.object({ created: z.number(), duplicate: z.number(), error: z.number() }),
});

/** Every error answer's body: what went wrong, and where when it is about a field. */
export const ZApiError = z.object({
  error: z.object({ code: z.string(), message: z.string(), path: z.string().optional() }),
});

export const RUN_STATUSES = ["live", "completed", "failed", "stopped"] as const;
export const ZRunStatus = z.enum(RUN_STATUSES);
/**
 * The runs list's sorts: `-x` descending, `x` ascending. findings, dropped and dropRate read the
 * run's last rebuild (stored on its row); runs without one sort last either way.
 */
export const RUN_SORTS = [
  "-started",
  "started",
  "-turns",
  "turns",
  "-findings",
  "findings",
  "-dropped",
  "dropped",
  "-dropRate",
  "dropRate",
] as const;
export const RUN_PAGE_SIZES = [50, 100, 200] as const;

/** Query of `GET /api/v1/runs`: filters and sort live in the URL. */
export const ZRunListQuery = z.object({
  status: z.enum(RUN_STATUSES, { error: `expected one of ${RUN_STATUSES.join(", ")}` }).optional(),
  agent: ZNameParam.optional(),
  model: ZNameParam.optional(),
  /** Only runs whose run.started named this experiment (its id; contract §10). */
  experiment: zTextParam({ max: 200, what: "an experiment id of 1-200 characters" }).optional(),
  /** Only runs whose run.started named this arm (usually with `experiment`). */
  arm: zTextParam({ max: 200, what: "an arm's name of 1-200 characters" }).optional(),
  /** Text in the run id, task, agent or model, case-insensitive; `%`, `_` and `\\` are plain characters. */
  q: zTextParam({ max: 200 }).optional(),
  from: ZInstantParam.optional(),
  to: ZInstantParam.optional(),
  /** Only runs with a Reviewer row that carries a Reviewer finding (contract §7). */
  hasViolations: ZFlagParam.optional(),
  /** Only runs with at least one reminder dropped for capacity. */
  hasDrops: ZFlagParam.optional(),
  /** Only runs with at least one finding of this code. */
  finding: z.enum(FINDING_CODES, { error: "expected a finding code of contract §7" }).optional(),
  sort: z.enum(RUN_SORTS, { error: `expected one of ${RUN_SORTS.join(", ")}` }).default("-started"),
  cursor: ZCursorParam.optional(),
  limit: zIntParam(1, 200).default(50),
});

export const ZReminderCounts = z.object({
  delivered: z.number(),
  dropped: z.number(),
  failed: z.number(),
  uncertain: z.number(),
  pending: z.number(),
});

/** One run in the list: each meter in its own unit, never combined. */
export const ZRunListItem = z.object({
  runId: z.string(),
  task: z.string().nullable(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  /** The experiment and arm the run's run.started named (contract §10); null for most runs. */
  experimentId: z.string().nullable(),
  experimentArm: z.string().nullable(),
  status: ZRunStatus,
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  turns: z.number(),
  eventCount: z.number(),
  requests: z.object({ used: z.number(), usable: z.number(), reserve: z.number(), limit: z.number() }).nullable(),
  time: z.object({ elapsedMs: z.number(), limitMs: z.number() }).nullable(),
  reminders: ZReminderCounts,
  findings: z.number(),
  /** The findings counted by code (contract §7): the list colours a run by its worst severity. */
  findingsByCode: z.partialRecord(z.enum(FINDING_CODES), z.number()),
  /** Reminders dropped / every reminder decided (unitless, 0–1); null without reminders or before a rebuild. */
  dropRate: z.number().nullable(),
  /** Reviewer rows with violations in the run's last rebuild; null before one. */
  reviewerViolations: z.number().nullable(),
  /** Why the run's decisions could not be rebuilt (e.g. its run.started has not arrived yet). */
  rebuildError: z.string().nullable(),
  /**
   * Rebuilds run in the background after ingest: the stored events the rebuilt figures above do
   * not include yet (0 when current), and whether the run was never rebuilt at all.
   */
  staleEvents: z.number().int().min(0),
  rebuildPending: z.boolean(),
  /** The run's comments (on the run and on its turns): docs/comments.md. */
  commentCount: z.number().int().min(0),
  /**
   * A live run's next limit at its recent pace (docs/projection.md): the meter whose limit comes first,
   * the projected turn with its interval, and the turns left until then; null for a finished run or
   * when no limit is reached at the recent pace.
   */
  nextLimit: z
    .object({
      meter: ZProjectedMeter,
      turn: z.number().int(),
      turnLow: z.number().int().nullable(),
      turnHigh: z.number().int().nullable(),
      turnsLeft: z.number().int(),
    })
    .nullable(),
});

export const ZRunListResponse = z.object({ runs: z.array(ZRunListItem), nextCursor: z.string().nullable() });

/** `GET /api/v1/facets`: the values the runs list's filters can take in the key's project. */
export const ZRunFacets = z.object({
  agents: z.array(z.string()),
  models: z.array(z.string()),
  /** The statuses the project's runs have, in RUN_STATUSES order. */
  statuses: z.array(ZRunStatus),
});

export const ZRunSummary = ZRunListItem.extend({
  policy: ZPolicy.nullable(),
  copy: ZCopy.nullable(),
  rebuiltTurns: z.number(),
  skippedTurns: z.number(),
  lastMeters: ZTurnMeters.nullable(),
  /** What runs out next at the run's recent pace, as of its last rebuilt turn (docs/projection.md); null before a rebuild that made one. */
  projection: ZRunProjection.nullable(),
  /** How far off the projection was, each time a meter reached a stage or its limit (docs/projection.md#how-far-off); null before a rebuild that made one. */
  projectionCheck: ZRunProjectionCheck.nullable(),
});

export const ZEventsQuery = z.object({
  turn: ZTurnParam.optional(),
  /** The nextCursor of a previous page: an event's arrival sequence (a PostgreSQL bigint). */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, { error: (iss) => `expected the nextCursor of a previous page, got ${JSON.stringify(iss.input).slice(0, 60)}` })
    .optional(),
  limit: zIntParam(1, 5000).default(1000),
});

/** A stored event: the event as validated, with its arrival sequence. */
export const ZStoredEvent = z.object({
  seq: z.string(),
  receivedAt: z.string(),
  event: z.record(z.string(), z.unknown()),
});

export const ZEventsResponse = z.object({ events: z.array(ZStoredEvent), nextCursor: z.string().nullable() });

export type TIngestResult = z.infer<typeof ZIngestResult>;
export type TIngestResponse = z.infer<typeof ZIngestResponse>;
export type TApiError = z.infer<typeof ZApiError>;
export type TRunStatus = z.infer<typeof ZRunStatus>;
export type TRunListQuery = z.infer<typeof ZRunListQuery>;
export type TRunListItem = z.infer<typeof ZRunListItem>;
export type TRunListResponse = z.infer<typeof ZRunListResponse>;
export type TRunFacets = z.infer<typeof ZRunFacets>;
export type TRunSort = (typeof RUN_SORTS)[number];
export type TRunSummary = z.infer<typeof ZRunSummary>;
export type TReminderCounts = z.infer<typeof ZReminderCounts>;
export type TEventsQuery = z.infer<typeof ZEventsQuery>;
export type TEventsResponse = z.infer<typeof ZEventsResponse>;

/** `GET /api/v1/runs/:runId/turns/:turn`: everything the turn inspector shows of one turn. */
export const ZTurnDetail = z.object({
  runId: z.string(),
  turn: z.number(),
  /** The rebuilt decision; null when the turn was skipped (INCOMPLETE_TURN) or has no events. */
  decision: ZTurnDecision.nullable(),
  exists: z.boolean(),
  findings: z.array(ZFinding),
  /** The turn's events in run order (validated as stored). */
  events: z.array(z.record(z.string(), z.unknown())),
  /** Neighbouring turns that exist, for ← → navigation. */
  previousTurn: z.number().nullable(),
  nextTurn: z.number().nullable(),
});
export type TTurnDetail = z.infer<typeof ZTurnDetail>;

/** Path parameters of the run routes: a run id (contract §4) and, for turn routes, a turn. */
export const ZRunPathParams = z.object({ runId: ZRunIdParam });
export const ZTurnParams = z.object({ turn: ZTurnParam });

/** Query of `GET /api/v1/runs/:runId/timeline`: an optional turn window and point budget. */
export const ZTimelineQuery = z.object({
  from: zIntParam(0, MAX_INT4).optional(),
  to: zIntParam(0, MAX_INT4).optional(),
  maxPoints: zIntParam(4, 5000).optional(),
});
export type TTimelineQuery = z.infer<typeof ZTimelineQuery>;

/** `GET /api/v1/health`: which database this server uses and whether it answers; no data shown. */
export const ZHealth = z.object({
  ok: z.boolean(),
  service: z.literal("cuescope"),
  database: z.enum(["postgres", "pglite"]),
  /**
   * This server process's event loop: the longest it was blocked (a timer fired late) in the last
   * `windowS` seconds. A stall here delays every request of every project.
   */
  eventLoop: z.object({
    worstLagMs: z.number().int().min(0),
    windowS: z.number().int().positive(),
  }),
  /** Only when `ok` is false (503): the same body as every error answer's `error`. */
  error: ZApiError.shape.error.optional(),
});
export type THealth = z.infer<typeof ZHealth>;
