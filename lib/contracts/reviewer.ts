import { z } from "zod";
import { DELIVERY_STATUSES, DENIAL_REASONS, FINDING_CODES, REVIEWER_FINDING_CODES } from "./decisions";
import { ZCursorParam, ZFlagParam, ZInstantParam, ZNameParam, ZRunIdParam, zIntParam } from "./params";
import { ZReview, ZReviewQueueFilters } from "./reviews";

/**
 * The candidates' orders: `newest` run first (the default) or `oldest`, each by turn within a run;
 * `violations`: the candidates with the most Reviewer findings first, then newest run, then turn.
 */
export const REVIEWER_SORTS = ["newest", "oldest", "violations"] as const;
export const ZReviewerSort = z.enum(REVIEWER_SORTS, { error: `expected one of ${REVIEWER_SORTS.join(", ")}` });
export type TReviewerSort = z.infer<typeof ZReviewerSort>;

/** The filters of the Reviewer audit (the funnel's): the same run filters as the runs list, plus violations only. */
const ZReviewerAuditFilters = z.object({
  agent: ZNameParam.optional(),
  model: ZNameParam.optional(),
  runId: ZRunIdParam.optional(),
  from: ZInstantParam.optional(),
  to: ZInstantParam.optional(),
  violations: ZFlagParam.optional(),
  /** Only candidates with this Reviewer finding (and the funnel of the runs that have one). */
  code: z.enum(REVIEWER_FINDING_CODES, { error: `expected a Reviewer finding code: ${REVIEWER_FINDING_CODES.join(", ")}` }).optional(),
  cursor: ZCursorParam.optional(),
  limit: zIntParam(1, 500).default(100),
});

/** Query of `GET /api/v1/reviewer/candidates`: the audit's filters, the review queue's, and an order. */
export const ZReviewerCandidatesQuery = ZReviewerAuditFilters.extend({
  ...ZReviewQueueFilters.shape,
  /** The order of the candidates (the funnel has none); a cursor only continues the order it came from. */
  sort: ZReviewerSort.optional(),
});

/** Query of `GET /api/v1/reviewer/funnel`: the audit's filters (a funnel has no order; cursor and limit are ignored). */
export const ZReviewerFunnelQuery = ZReviewerAuditFilters;

/** Query of `GET /api/v1/reviewer/progress`: the candidates' filters but `reviewed` (progress counts both). */
export const ZReviewProgressQuery = ZReviewerCandidatesQuery.omit({ sort: true, cursor: true, limit: true, reviewed: true });
export type TReviewProgressQuery = z.infer<typeof ZReviewProgressQuery>;
export type TReviewerFunnelQuery = z.infer<typeof ZReviewerFunnelQuery>;

/** One Reviewer candidate of one run: recorded and rebuilt side by side (R12, R13). */
export const ZReviewerCandidateRow = z.object({
  runId: z.string(),
  task: z.string().nullable(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  /** The agent's candidate id; null for a candidate only the rebuild says was due. */
  candidateId: z.string().nullable(),
  turn: z.number(),
  checkpoint: z.number().nullable(),
  source: z.enum(["recorded", "rebuilt", "both"]),
  /** The rebuild's own candidate and admission on this turn (R13). */
  rebuilt: z.object({ checkpoint: z.number(), granted: z.boolean(), reasons: z.array(z.enum(DENIAL_REASONS)) }).nullable(),
  /** The last admission the runtime recorded for this candidate (its reasons as sent). */
  recorded: z.object({ granted: z.boolean(), reasons: z.array(z.string()), turn: z.number() }).nullable(),
  /** R13 evaluated where the recorded admission stands (its turn's facts, dispatches in progress there). */
  rule: z
    .object({
      granted: z.boolean(),
      reasons: z.array(z.enum(DENIAL_REASONS)),
      requestsLeft: z.number().nullable(),
      minRequestsLeft: z.number(),
      reviewInProgress: z.boolean(),
    })
    .nullable(),
  dispatches: z.array(
    z.object({ dispatchId: z.string(), turn: z.number(), completedTurn: z.number().nullable(), verdict: z.string().nullable() }),
  ),
  cancelled: z.object({ reason: z.string(), turn: z.number() }).nullable(),
  /** That turn's review suggestion and what became of it — shown beside, never as a licence (R12). */
  suggestion: z.object({ stage: z.number(), status: z.enum(DELIVERY_STATUSES) }).nullable(),
  /** The Reviewer findings (contract §7) that belong to this candidate. */
  findings: z.array(z.enum(FINDING_CODES)),
});

/** A candidate as the audit lists it: the row, its key within its run (a review's), and its review if it has one. */
export const ZReviewerListRow = ZReviewerCandidateRow.extend({ reviewKey: z.string(), review: ZReview.nullable() });
export type TReviewerListRow = z.infer<typeof ZReviewerListRow>;

export const ZReviewerCandidatesResponse = z.object({ rows: z.array(ZReviewerListRow), nextCursor: z.string().nullable() });

export type TReviewerCandidatesQuery = z.infer<typeof ZReviewerCandidatesQuery>;
export type TReviewerCandidateRow = z.infer<typeof ZReviewerCandidateRow>;
export type TReviewerCandidatesResponse = z.infer<typeof ZReviewerCandidatesResponse>;

export const ZExportFormat = z.object({ format: z.enum(["csv", "json"], { error: "expected csv or json" }).default("csv") });

/** `GET /api/v1/reviewer/funnel`: candidate → admission → dispatch → completion counts with exits. */
export const ZReviewerFunnel = z.object({
  candidates: z.object({
    total: z.number(),
    recorded: z.number(),
    rebuiltDue: z.number(),
    recordedNotDue: z.number(),
    dueNotRecorded: z.number(),
  }),
  admissions: z.object({
    recorded: z.number(),
    granted: z.number(),
    denied: z.number(),
    deniedByReason: z.record(z.string(), z.number()),
    againstRule: z.number(),
  }),
  dispatches: z.object({ total: z.number(), completed: z.number(), running: z.number() }),
  cancelled: z.object({ total: z.number(), byReason: z.record(z.string(), z.number()) }),
  violations: z.partialRecord(z.enum(FINDING_CODES), z.number()),
});
export type TReviewerFunnel = z.infer<typeof ZReviewerFunnel>;
