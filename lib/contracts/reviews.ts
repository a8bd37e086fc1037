import { z } from "zod";
import { MAX_RUN_ID_CHARS, showParam, ZCursorParam, ZFlagParam, ZRecordIdParam, ZRunIdParam, zIntParam, zTextParam } from "./params";

/**
 * Reviews of Reviewer candidates (docs/reviews.md): a person's judgement of a dispatch or a
 * violation, a comment, and who the candidate is assigned to. The rules (R12, R13) already say what
 * was allowed; a review says whether it was right.
 */

/**
 * `justified`: the dispatch (or the rules' decision) was right; `unnecessary`: the Reviewer was
 * dispatched when it should not have been; `should_dispatch`: it should have been dispatched and
 * was not.
 */
export const REVIEW_VERDICTS = ["justified", "unnecessary", "should_dispatch"] as const;
export type TReviewVerdict = (typeof REVIEW_VERDICTS)[number];
export const ZReviewVerdict = z.enum(REVIEW_VERDICTS, { error: `expected one of ${REVIEW_VERDICTS.join(", ")}` });

/** A review comment's limit, in characters (plain text, shown as written). */
export const MAX_REVIEW_COMMENT_CHARS = 4_000;
export const MAX_REVIEW_REQUEST_BYTES = 32 * 1024;

/** A review key's limit, in characters (a candidate id has none of its own: the key's parameter bounds it). */
export const MAX_REVIEW_KEY_CHARS = 8_000;

/** A candidate's key within its run: `c:<candidate id>`, or `t:<turn>` for a candidate only the rebuild says was due. */
export const ZReviewKeyParam = zTextParam({
  max: MAX_REVIEW_KEY_CHARS,
  what: `a review key (c:<candidate id> or t:<turn>) of 1-${MAX_REVIEW_KEY_CHARS.toLocaleString("en-US")} characters`,
});

/**
 * The longest target id of a review's audit entries (`review.verdict`, `review.assign`):
 * `<runId>/<reviewKey>`, a run id, a slash and a review key. No other target's id is longer, so it
 * bounds the audit list's `targetId` filter.
 */
export const MAX_REVIEW_TARGET_ID_CHARS = MAX_RUN_ID_CHARS + 1 + MAX_REVIEW_KEY_CHARS;

export const ZReviewPathParams = z.object({ runId: ZRunIdParam, reviewKey: ZReviewKeyParam });

/** A person or a key as a review names them. */
const ZWho = z.object({ personId: z.string().nullable(), name: z.string() });

/** One candidate's review: the verdict (if given) and the assignment (if any). */
export const ZReview = z.object({
  runId: z.string(),
  reviewKey: z.string(),
  turn: z.number(),
  verdict: ZReviewVerdict.nullable(),
  comment: z.string().nullable(),
  /** Who gave the verdict, and when; null before a verdict. */
  reviewer: ZWho.nullable(),
  reviewedAt: z.string().nullable(),
  /** What the rules said when the verdict was given: the candidate's Reviewer findings and whether it was dispatched. */
  ruleFindings: z.array(z.string()),
  dispatched: z.boolean(),
  assignee: ZWho.nullable(),
  assignedAt: z.string().nullable(),
  /** Send it back as `version` to change the review only if nobody changed it since. */
  version: z.number(),
  updatedAt: z.string(),
});
export type TReview = z.infer<typeof ZReview>;

/**
 * `PATCH /api/v1/runs/{runId}/reviews/{reviewKey}`: what to change (each field left out stays as it
 * is). A verdict of null takes the verdict back; an assignee of null unassigns.
 */
export const ZReviewUpdate = z
  .strictObject({
    verdict: ZReviewVerdict.nullable().optional(),
    comment: z
      .string({ error: (iss) => `expected text or null, got ${showParam(iss.input)}` })
      .max(MAX_REVIEW_COMMENT_CHARS, { error: `at most ${MAX_REVIEW_COMMENT_CHARS.toLocaleString("en-US")} characters` })
      .nullable()
      .optional(),
    /** A member of the project (their person id), or null. */
    assigneeId: ZRecordIdParam.nullable().optional(),
    /** The review's version as last read: the change is refused (409) if it changed since. Left out: no check. */
    version: z.number().int().min(0).optional(),
  })
  .refine((body) => body.verdict !== undefined || body.comment !== undefined || body.assigneeId !== undefined, {
    error: "nothing to change: give a verdict, a comment or an assigneeId",
  });
export type TReviewUpdate = z.infer<typeof ZReviewUpdate>;

/** The review queue's own filters, beside the Reviewer audit's (`GET /api/v1/reviewer/candidates`). */
export const ZReviewQueueFilters = z.object({
  /** Only candidates in the review queue: dispatched, with a Reviewer finding, or due by the rebuild only. */
  queue: ZFlagParam.optional(),
  /** `no`: only candidates without a verdict; `yes`: only those with one. */
  reviewed: z.enum(["yes", "no"], { error: "expected yes or no" }).optional(),
  /** `me`: assigned to the signed-in person; `none`: assigned to nobody; else a person id. */
  assignee: ZRecordIdParam.optional(),
});
export type TReviewQueueFilters = z.infer<typeof ZReviewQueueFilters>;

/** `GET /api/v1/reviewer/progress`: how much of the queue is reviewed, over the filters. */
export const ZReviewProgress = z.object({
  /** Candidates in the queue over the filters (the assignee filter included). */
  total: z.number(),
  reviewed: z.number(),
  verdicts: z.object({ justified: z.number(), unnecessary: z.number(), should_dispatch: z.number() }),
  /** Candidates assigned to the signed-in person without a verdict (0 for a key). */
  assignedToYou: z.number(),
});
export type TReviewProgress = z.infer<typeof ZReviewProgress>;

/** Query of `GET /api/v1/runs/{runId}/reviews`. */
export const ZRunReviewsQuery = z.object({ cursor: ZCursorParam.optional(), limit: zIntParam(1, 500).default(200) });

/** `GET /api/v1/runs/{runId}/reviews`: the run's reviews in turn order. */
export const ZRunReviews = z.object({ reviews: z.array(ZReview), nextCursor: z.string().nullable() });
export type TRunReviews = z.infer<typeof ZRunReviews>;

/** A share of reviews with its count and its 95% Wilson interval (null when n is 0). */
const ZShare = z.object({
  k: z.number(),
  n: z.number(),
  rate: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});

/**
 * One week of verdicts (weeks start on Monday in the time zone): the verdicts given, and how often
 * people and the rules (R12-R13: the candidate had a Reviewer finding) agreed that something went
 * wrong. Agreement is a comparison of two judgements, not a measure of either's accuracy.
 */
export const ZReviewWeek = z.object({
  /** The week's Monday, YYYY-MM-DD in the time zone (the window's first week may start before `from`: it is counted from `from`). */
  week: z.string(),
  verdicts: z.object({ justified: z.number(), unnecessary: z.number(), should_dispatch: z.number() }),
  /** Of the week's verdicts, how many were on candidates with a Reviewer finding. */
  withFindings: z.number(),
  /** The 2×2 table: person says wrong (unnecessary or should_dispatch) × rules flagged a finding. */
  table: z.object({ bothWrong: z.number(), personOnly: z.number(), rulesOnly: z.number(), neither: z.number() }),
  agreement: ZShare,
});

export const ZReviewTrends = z.object({
  tz: z.string(),
  from: z.string(),
  to: z.string(),
  weeks: z.array(ZReviewWeek),
  total: ZReviewWeek.omit({ week: true }),
});
export type TReviewWeek = z.infer<typeof ZReviewWeek>;
export type TReviewTrends = z.infer<typeof ZReviewTrends>;
