import "server-only";
import { ZReviewerCandidatesQuery, ZReviewerFunnelQuery } from "@/lib/contracts";
import { getReviewerFunnel } from "@/lib/server/reviewer/funnel";
import { listReviewerCandidates } from "@/lib/server/reviewer/list-candidates";
import { defineLoader } from "./define-loader";

/**
 * GET /api/v1/reviewer/candidates: one page of candidates. ZReviewerCandidatesQuery checks every
 * parameter before the database is asked (text without NUL, instants in years 0001–9999,
 * plain-digit limits, cursors): a bad value is a 400 naming it, never a database error.
 */
export const reviewerCandidatesLoader = defineLoader({
  query: ZReviewerCandidatesQuery,
  load: (db, projectId, { query }) => listReviewerCandidates(db, projectId, query),
});

/** GET /api/v1/reviewer/funnel: the funnel over every candidate the same filters match (all pages). */
export const reviewerFunnelLoader = defineLoader({
  query: ZReviewerFunnelQuery,
  load: (db, projectId, { query }) => getReviewerFunnel(db, projectId, query),
});
