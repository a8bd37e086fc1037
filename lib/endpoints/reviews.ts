import {
  MAX_REVIEW_COMMENT_CHARS,
  MAX_REVIEW_REQUEST_BYTES,
  ZReview,
  ZReviewPathParams,
  ZReviewProgress,
  ZReviewProgressQuery,
  ZReviewTrends,
  ZReviewUpdate,
  ZRunPathParams,
  ZRunReviews,
  ZRunReviewsQuery,
  ZTrendWindow,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** People's reviews of Reviewer candidates (docs/reviews.md): verdicts, comments, assignments, progress and trends. */
export const reviewsApi = {
  update: endpoint({
    id: "updateReview",
    method: "PATCH",
    path: "/api/v1/runs/{runId}/reviews/{reviewKey}",
    tag: "Reviews",
    summary: "Review a Reviewer candidate",
    description:
      "Gives, changes or takes back (null) the verdict on one Reviewer candidate — `justified`, `unnecessary` (dispatched, should not have been) " +
      "or `should_dispatch` (should have been dispatched, was not) — with a comment, and assigns it to a member of the project (null: nobody). " +
      "Fields left out stay as they are. The review keeps the candidate's Reviewer findings and whether it was dispatched as they were when the " +
      "verdict was given. With `version` (the review's, as last read) a review changed since is refused with a 409 instead of overwritten. " +
      "Each change is in the audit log (`review.verdict`, `review.assign`).",
    auth: "key",
    pathParams: ZReviewPathParams,
    paramDescriptions: { reviewKey: "The candidate's `reviewKey`, as the candidates list gives it: `c:<candidate id>` or `t:<turn>`." },
    body: {
      schema: ZReviewUpdate,
      maxBytes: MAX_REVIEW_REQUEST_BYTES,
      description: `What to change. A comment is plain text of at most ${MAX_REVIEW_COMMENT_CHARS.toLocaleString("en-US")} characters; an empty one is none.`,
    },
    responses: [{ status: 200, description: "The review as it now stands.", schema: ZReview }],
    errors: { 409: "The review changed since `version` was read." },
  }),
  runReviews: endpoint({
    id: "listRunReviews",
    method: "GET",
    path: "/api/v1/runs/{runId}/reviews",
    tag: "Reviews",
    summary: "A run's reviews",
    description: "The run's reviews with a verdict or an assignee, in turn order, in pages.",
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZRunReviewsQuery,
    responses: [{ status: 200, description: "A page of reviews.", schema: ZRunReviews }],
  }),
  review: endpoint({
    id: "getReview",
    method: "GET",
    path: "/api/v1/runs/{runId}/reviews/{reviewKey}",
    tag: "Reviews",
    summary: "A Reviewer candidate's review",
    description:
      "One Reviewer candidate's review as it stands: its verdict, comment and assignee, and the `version` to send back with a change. " +
      "A candidate nothing was said of yet answers its empty review (version 0); a key that is none of the run's candidates is a 404.",
    auth: "key",
    pathParams: ZReviewPathParams,
    paramDescriptions: { reviewKey: "The candidate's `reviewKey`, as the candidates list gives it: `c:<candidate id>` or `t:<turn>`." },
    responses: [{ status: 200, description: "The review.", schema: ZReview }],
  }),
  progress: endpoint({
    id: "getReviewProgress",
    method: "GET",
    path: "/api/v1/reviewer/progress",
    tag: "Reviews",
    summary: "Review progress",
    description:
      "How many of the candidates over the filters (those of the candidates list; `queue=1` for the review queue) have a verdict, how many of " +
      "each, and how many without one are assigned to the signed-in person.",
    auth: "key",
    query: ZReviewProgressQuery,
    paramDescriptions: {
      runId: "Only this run.",
      from: "Only runs started at or after this date-time.",
      to: "Only runs started at or before this date-time.",
      queue: "`1`: only the review queue (candidates dispatched, with a Reviewer finding, or due by the rebuild only).",
      assignee: "`me` (the signed-in person), `none`, or a person id.",
    },
    responses: [{ status: 200, description: "The counts.", schema: ZReviewProgress }],
  }),
  trends: endpoint({
    id: "getReviewTrends",
    method: "GET",
    path: "/api/v1/trends/reviews",
    tag: "Reviews",
    summary: "Review verdicts per week",
    description:
      "The verdicts given in the window, per week (weeks start on Monday in `tz`), beside what the rules (R12–R13) said of the same candidates: " +
      "the 2×2 table of a person's verdict (wrong: `unnecessary` or `should_dispatch`) against a Reviewer finding, and how often the two agree, " +
      "with its count and 95% Wilson interval. Agreement compares two judgements; it measures neither's accuracy.",
    auth: "key",
    query: ZTrendWindow,
    paramDescriptions: {
      tz: "An IANA time zone whose days and weeks the verdicts are grouped by. Default `UTC`.",
      from: "The first day, `YYYY-MM-DD` in `tz`. Default: 13 days before `to`.",
      to: "The last day (included), `YYYY-MM-DD` in `tz`. Default: today in `tz`.",
    },
    responses: [{ status: 200, description: "The weeks and the window's total.", schema: ZReviewTrends }],
  }),
};
