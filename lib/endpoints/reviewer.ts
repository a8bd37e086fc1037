import { z } from "zod";
import {
  ZExportFormat,
  ZReviewerCandidatesQuery,
  ZReviewerCandidatesResponse,
  ZReviewerFunnel,
  ZReviewerFunnelQuery,
  ZReviewerListRow,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

const FILTERS = ZReviewerFunnelQuery.omit({ cursor: true, limit: true });

/** The Reviewer audit over the filtered runs: candidates, funnel and export. */
export const reviewerApi = {
  candidates: endpoint({
    id: "listReviewerCandidates",
    method: "GET",
    path: "/api/v1/reviewer/candidates",
    tag: "Reviewer",
    summary: "Reviewer candidates",
    description: "One page of Reviewer candidates (the record beside rule R13) over the filtered runs, as stored by their last rebuild.",
    auth: "key",
    query: ZReviewerCandidatesQuery,
    paramDescriptions: {
      runId: "Only this run's candidates.",
      sort:
        "`newest` run first (the default) or `oldest`, each by turn within a run; `violations`: the candidates with the most Reviewer " +
        "findings first, then newest run, then turn. A cursor continues the sort it came from only.",
      from: "Only runs started at or after this date-time.",
      to: "Only runs started at or before this date-time.",
    },
    responses: [{ status: 200, description: "A page of candidates.", schema: ZReviewerCandidatesResponse }],
  }),
  funnel: endpoint({
    id: "getReviewerFunnel",
    method: "GET",
    path: "/api/v1/reviewer/funnel",
    tag: "Reviewer",
    summary: "Reviewer funnel",
    description: "Candidate → admission → dispatch → completion counts, with the exits, over the same filters as the candidates.",
    auth: "key",
    query: FILTERS,
    paramDescriptions: {
      runId: "Only this run.",
      from: "Only runs started at or after this date-time.",
      to: "Only runs started at or before this date-time.",
    },
    responses: [{ status: 200, description: "The funnel.", schema: ZReviewerFunnel }],
  }),
  export: endpoint({
    id: "exportReviewerCandidates",
    method: "GET",
    path: "/api/v1/reviewer/candidates/export",
    tag: "Reviewer",
    summary: "Export Reviewer candidates",
    description:
      "Every candidate over the filters, streamed as a download: CSV (a header line, then one line per candidate) or a JSON array of candidate rows. " +
      "A failure after the download started ends it with an error marker (CSV: a last line `#error,<code>,<message>`; JSON: a last element " +
      '`{"error":…}` and no closing `]`), so a partial file is never taken for a whole one.',
    auth: "key",
    query: ZReviewerCandidatesQuery.extend(ZExportFormat.shape),
    paramDescriptions: {
      runId: "Only this run.",
      sort: "The order of the lines, as in the candidates list.",
      cursor: "Start after this page of the candidates list (of the same sort).",
      limit: "Ignored: the export holds every candidate from the cursor on (checked as the list checks it).",
    },
    responses: [
      {
        status: 200,
        description: "The download.",
        content: [
          { mediaType: "text/csv", schema: "text" },
          { mediaType: "application/json", schema: z.array(ZReviewerListRow) },
        ],
      },
    ],
  }),
};
