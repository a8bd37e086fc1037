import { ZCompareQuery, ZRunComparison } from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** Comparing two runs of the project (docs/compare.md). */
export const compareApi = {
  compare: endpoint({
    id: "compareRuns",
    method: "GET",
    path: "/api/v1/compare",
    tag: "Runs",
    summary: "Where two runs decided differently",
    description:
      "Compares two runs of the project turn by turn: the first turn where their decisions differ (each reminder's key, subject, kind, stage " +
      "and fate, and the Reviewer candidate and admission; not the reminders' wording), the next or previous difference from a turn, and " +
      "both runs' decisions at the turn found. Read from digests the rebuild stores per 256 turns and the decision chunks of one of them, " +
      "never either run whole. A run of another project is unknown.",
    auth: "key",
    query: ZCompareQuery,
    paramDescriptions: {
      a: "The first run's id.",
      b: "The second run's id.",
      turn: "The turn to step from (next, previous) or to show (at); without it, the first difference (next, at) or the last (previous).",
      direction: "next (default), previous or at.",
    },
    responses: [{ status: 200, description: "The comparison.", schema: ZRunComparison }],
    errors: { 404: "Run a or b is not one of the project's; the message names which." },
  }),
};
