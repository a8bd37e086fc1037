import "server-only";
import { reviewerApi } from "@/lib/endpoints/reviewer";
import { getReviewerFunnel } from "@/lib/server/reviewer/funnel";
import { listReviewerCandidates } from "@/lib/server/reviewer/list-candidates";
import { defineLoader } from "./define-loader";

/**
 * One page of candidates. ZReviewerCandidatesQuery checks every parameter before the database is
 * asked (text without NUL, instants in years 0001–9999, plain-digit limits, cursors): a bad value
 * is a 400 naming it, never a database error.
 */
export const reviewerCandidatesLoader = defineLoader(reviewerApi.candidates, (db, projectId, { query }, viewer) =>
  listReviewerCandidates(db, projectId, query, viewer),
);

/** The funnel over every candidate the same filters match (all pages). */
export const reviewerFunnelLoader = defineLoader(reviewerApi.funnel, (db, projectId, { query }) => getReviewerFunnel(db, projectId, query));
