import { z } from "zod";
import {
  ZEventsQuery,
  ZEventsResponse,
  ZExportFormat,
  ZRunDecisions,
  ZRunFacets,
  ZRunListItem,
  ZRunListQuery,
  ZRunListResponse,
  ZRunPathParams,
  ZRunSearch,
  ZRunSearchQuery,
  ZRunSummary,
  ZRunTimeline,
  ZRunTriage,
  ZTimelineQuery,
  ZTriageQuery,
  ZTurnDetail,
  ZTurnParams,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** Reading runs: the list, its export and filter values, and one run's summary, decisions, events, timeline, triage, search and turns. */
export const runsApi = {
  list: endpoint({
    id: "listRuns",
    method: "GET",
    path: "/api/v1/runs",
    tag: "Runs",
    summary: "List runs",
    description: "One page of the project's runs, filtered and sorted; follow `nextCursor` for the next page.",
    auth: "key",
    query: ZRunListQuery,
    responses: [{ status: 200, description: "A page of runs.", schema: ZRunListResponse }],
  }),
  export: endpoint({
    id: "exportRuns",
    method: "GET",
    path: "/api/v1/runs/export",
    tag: "Runs",
    summary: "Export runs",
    description:
      "Every run over the list's filters, in its sort, streamed as a download: CSV (a header line naming each column's unit, e.g. " +
      "`dropped (reminders)`, then one line per run; text a spreadsheet would run as a formula is prefixed with `'`) or a JSON array " +
      "of run list items. `cursor` and `limit` are ignored. A failure after the download started ends it with an error marker " +
      '(CSV: a last line `#error,<code>,<message>`; JSON: a last element `{"error":…}` and no closing `]`).',
    auth: "key",
    query: ZRunListQuery.extend(ZExportFormat.shape),
    paramDescriptions: {
      cursor: "Ignored: the export starts at the first run (checked as the list checks it).",
      limit: "Ignored: the export holds every run (checked as the list checks it).",
    },
    responses: [
      {
        status: 200,
        description: "The download.",
        content: [
          { mediaType: "text/csv", schema: "text" },
          { mediaType: "application/json", schema: z.array(ZRunListItem) },
        ],
      },
    ],
  }),
  facets: endpoint({
    id: "getRunFacets",
    method: "GET",
    path: "/api/v1/facets",
    tag: "Runs",
    summary: "Filter values of the runs list",
    description: "The agents, models and statuses the project's runs have.",
    auth: "key",
    responses: [{ status: 200, description: "The values.", schema: ZRunFacets }],
  }),
  summary: endpoint({
    id: "getRunSummary",
    method: "GET",
    path: "/api/v1/runs/{runId}",
    tag: "Runs",
    summary: "A run's summary",
    description: "The run's list entry with its policy, copy, last meters and rebuild state (`staleEvents`, `rebuildPending`).",
    auth: "key",
    pathParams: ZRunPathParams,
    responses: [{ status: 200, description: "The run.", schema: ZRunSummary }],
    errors: { 409: "The run's decisions cannot be rebuilt (e.g. its run.started has not arrived)." },
  }),
  decisions: endpoint({
    id: "getRunDecisions",
    method: "GET",
    path: "/api/v1/runs/{runId}/decisions",
    tag: "Runs",
    summary: "A run's rebuilt decisions",
    description:
      "Every turn's rebuilt reminder and Reviewer decisions and the run's findings. Waits for a pending rebuild (without doing it); " +
      "the header `x-cuescope-stale-events` counts the events the answer does not include yet. The answer is streamed as it is read; " +
      'one that a rebuild overtakes ends with an error mark (`,{"error":…}` and no closing brackets), so it never parses: download it again.',
    auth: "key",
    pathParams: ZRunPathParams,
    responses: [
      {
        status: 200,
        description: "The decisions.",
        schema: ZRunDecisions,
        headers: { "x-cuescope-stale-events": "Stored events the decisions do not include yet (0 when current)." },
      },
    ],
    errors: {
      409: "The run's decisions cannot be rebuilt.",
      503: "The project already has CUESCOPE_WHOLE_READS reads of a whole run under way; header Retry-After.",
    },
  }),
  events: endpoint({
    id: "listRunEvents",
    method: "GET",
    path: "/api/v1/runs/{runId}/events",
    tag: "Runs",
    summary: "A run's raw events",
    description: "The stored events in arrival order, one page at a time, optionally of one turn.",
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZEventsQuery,
    paramDescriptions: { turn: "Only the events of this turn." },
    responses: [{ status: 200, description: "A page of events.", schema: ZEventsResponse }],
  }),
  timeline: endpoint({
    id: "getRunTimeline",
    method: "GET",
    path: "/api/v1/runs/{runId}/timeline",
    tag: "Runs",
    summary: "A run's timeline",
    description:
      "The meter series, reminder, Reviewer and notification lanes and finding markers, for the whole run or a window of turns, within a point budget.",
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZTimelineQuery,
    paramDescriptions: { from: "First turn of the window.", to: "Last turn of the window.", maxPoints: "The point budget per series." },
    responses: [{ status: 200, description: "The timeline.", schema: ZRunTimeline }],
    errors: { 409: "The run's decisions cannot be rebuilt." },
  }),
  triage: endpoint({
    id: "getRunTriage",
    method: "GET",
    path: "/api/v1/runs/{runId}/triage",
    tag: "Runs",
    summary: "Previous and next problem turns",
    description:
      "For each triage kind (a dropped reminder, a finding, a failed or uncertain delivery): how many turns of the run have one, and the nearest such turn before and after the given turn. Read from marks the rebuild stores.",
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZTriageQuery,
    paramDescriptions: { turn: "The turn to step from; without it, next is the first such turn and previous the last." },
    responses: [{ status: 200, description: "The neighbours of each kind.", schema: ZRunTriage }],
  }),
  search: endpoint({
    id: "searchRun",
    method: "GET",
    path: "/api/v1/runs/{runId}/search",
    tag: "Runs",
    summary: "Search inside a run",
    description:
      "The turns that hold a reminder text, finding code, action kind or block id matching `q`, read from a search index the rebuild stores " +
      "(docs/search.md). A text matches as a substring, case and digits aside (`37 requests left` and `36 requests left` are the text " +
      "`# requests left`); a finding code, action kind or block id matches by its case-insensitive prefix. The answer lists the matching " +
      "terms, how many turns match, and the first 500 of them in turn order with the terms each holds; `indexed` is false while the run " +
      "is being rebuilt with its index.",
    auth: "key",
    pathParams: ZRunPathParams,
    query: ZRunSearchQuery,
    paramDescriptions: {
      q: "The text to find (1-200 characters, not only white space).",
      kind: "Only terms of this kind: `text`, `finding`, `action` or `block`; absent: every kind.",
    },
    responses: [{ status: 200, description: "The matching turns.", schema: ZRunSearch }],
  }),
  turn: endpoint({
    id: "getTurnDetail",
    method: "GET",
    path: "/api/v1/runs/{runId}/turns/{turn}",
    tag: "Runs",
    summary: "One turn",
    description: "Everything the turn inspector shows: the rebuilt decision, the turn's findings and events, and the neighbouring turns.",
    auth: "key",
    pathParams: ZRunPathParams.extend(ZTurnParams.shape),
    responses: [{ status: 200, description: "The turn.", schema: ZTurnDetail }],
    errors: { 409: "The run's decisions cannot be rebuilt." },
  }),
};
