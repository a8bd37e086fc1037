import type { z } from "zod";
import {
  ZTrendsQuery,
  MAX_BATCH_BYTES,
  MAX_COMMENT_CHARS,
  MAX_COMMENT_PAGE_CHARS,
  MAX_COMMENT_REQUEST_BYTES,
  ZCommentListQuery,
  ZCommentPathParams,
  MAX_BATCH_EVENTS,
  ZEventsQuery,
  ZExportFormat,
  ZOtlpRecordsQuery,
  ZIdPathParams,
  ZReplayMatchingQuery,
  ZReviewerCandidatesQuery,
  ZRunListQuery,
  ZRunPathParams,
  ZSavedViewsQuery,
  ZTimelineQuery,
  ZTriageQuery,
  ZTurnParams,
} from "@/lib/contracts";
import type { RequestSchemaName, ResponseSchemaName } from "./schemas";

/**
 * Every operation of `/api/v1`, written once: the OpenAPI document (./document.ts), the reference
 * page (app/docs/api) and the test that walks app/api/v1 (./document.test.ts) all read this table.
 * Parameters and bodies are the contracts the routes parse with (lib/server/http, lib/server/loaders).
 */

export const TAGS = [
  { name: "Ingest", description: "Sending telemetry: batches of events, each validated and stored on its own." },
  {
    name: "OpenTelemetry",
    description: "OTLP/HTTP ingestion for OpenTelemetry exporters (docs/contract/otlp.md), and what it kept besides telemetry events.",
  },
  { name: "Runs", description: "Reading runs: the list, a run's summary, its rebuilt decisions, timeline, turns and raw events." },
  {
    name: "Comments",
    description: "Notes on a run or on one of its turns: Markdown written by the signed-in key, edited and deleted by its author only.",
  },
  { name: "Reviewer", description: "The Reviewer audit over the filtered runs: candidates, funnel and export." },
  { name: "Trends", description: "Counts per day in a time zone, from the per-run aggregates each rebuild stores." },
  { name: "Copy versions", description: "Saved reminder copy: list, save, read, make the project's default." },
  { name: "Policy versions", description: "Saved policies: list, save, read, make the project's default." },
  { name: "Saved views", description: "Named views of the runs list and the Reviewer audit (a page's URL query), per project." },
  { name: "Replay", description: "What-if replays of stored runs with another copy or policy version (background jobs)." },
  { name: "Service", description: "Health and this reference; no key needed." },
] as const;

export type TagName = (typeof TAGS)[number]["name"];

/** A success answer: its status, what it means, and its body (a named schema, or a short description of another body). */
export interface SuccessResponse {
  status: number;
  description: string;
  schema?: ResponseSchemaName;
  /** A body that is not one JSON schema: its media types and what each holds. */
  content?: { mediaType: string; schema: ResponseSchemaName | "array-of-row" | "array-of-run" | "text" | "object" | "binary" }[];
  headers?: Record<string, string>;
}

/** The error statuses the API answers with (lib/server/http/errors-to-response.ts), 500 aside. */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 429, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export interface Operation {
  operationId: string;
  method: "get" | "post" | "patch" | "delete";
  /** The OpenAPI path: `/api/v1/runs/{runId}` for app/api/v1/runs/[runId]/route.ts. */
  path: string;
  tag: TagName;
  summary: string;
  description: string;
  /**
   * `key`: a Bearer API key (or the browser's session cookie); `exporter`: the API key as an OTLP
   * exporter sends it (Bearer, `x-api-key` or HTTP Basic; no session); `public`: no credentials.
   */
  auth: "key" | "exporter" | "public";
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  /** What a parameter means, by name (path and query alike). */
  paramDescriptions?: Record<string, string>;
  /** The request body: a named JSON schema, or (`content`) other media types described in words. */
  body?: {
    schema?: RequestSchemaName;
    content?: { mediaType: string; schema: "binary" | "object" }[];
    maxBytes: number;
    description: string;
  };
  responses: SuccessResponse[];
  /** Error answers particular to this operation (the usual ones are added from its shape, see ./document.ts). */
  errors?: Partial<Record<ErrorStatus, string | { description: string; schema: ResponseSchemaName }>>;
}

const RUN_PATH = ZRunPathParams;
const TURN_PATH = ZRunPathParams.extend(ZTurnParams.shape);
const REVIEWER_FILTERS = ZReviewerCandidatesQuery.omit({ cursor: true, limit: true, sort: true });
const VERSION_BYTES = 256 * 1024;

const PARAMS: Record<string, string> = {
  runId: "The run's id (1–128 characters). The ids `.` and `..` are sent as `~` with the query `?runId=.` or `?runId=..`.",
  turn: "A turn number (an integer ≥ 0).",
  id: "The record's id, as the API gave it.",
  cursor: "The `nextCursor` of the previous page; leave out for the first page.",
  limit: "How many items per page.",
  status: "Only runs with this status.",
  agent: "Only runs of this agent (exact name).",
  model: "Only runs of this model (exact name).",
  q: "Text in the run's task, case-insensitive.",
  from: "Only runs started at or after this RFC 3339 date-time (with a zone).",
  to: "Only runs started at or before this RFC 3339 date-time (with a zone).",
  sort: "Order of the list: by start or by turns, `-` for descending.",
  violations: "`1` or `true`: only candidates with a finding.",
  format: "`csv` (the default) or `json`.",
};

function savedViewOperations(): Operation[] {
  const tag: TagName = "Saved views";
  return [
    {
      operationId: "listSavedViews",
      method: "get",
      path: "/api/v1/views",
      tag,
      summary: "List saved views",
      description: "The project's saved views (of one page with `page`), by page then name.",
      auth: "key",
      query: ZSavedViewsQuery,
      paramDescriptions: { page: "`runs` or `reviewer`: only that page's views." },
      responses: [{ status: 200, description: "The views.", schema: "SavedViewList" }],
    },
    {
      operationId: "createSavedView",
      method: "post",
      path: "/api/v1/views",
      tag,
      summary: "Save a view",
      description: "Saves a page's URL query (its filters and sort; a `cursor` is dropped) under a name unique on that page.",
      auth: "key",
      body: { schema: "SavedViewCreate", maxBytes: 8 * 1024, description: "The page, the name and the query without `?`." },
      responses: [{ status: 201, description: "The saved view.", schema: "SavedView" }],
      errors: { 409: "The page has a view of that name, or 100 views already." },
    },
    {
      operationId: "updateSavedView",
      method: "patch",
      path: "/api/v1/views/{id}",
      tag,
      summary: "Rename or change a saved view",
      description: "A new name, a new query, or both.",
      auth: "key",
      pathParams: ZIdPathParams,
      body: { schema: "SavedViewUpdate", maxBytes: 8 * 1024, description: "`name` and/or `query`." },
      responses: [{ status: 200, description: "The view.", schema: "SavedView" }],
      errors: { 404: "No such view in the project.", 409: "The page has another view of that name." },
    },
    {
      operationId: "deleteSavedView",
      method: "delete",
      path: "/api/v1/views/{id}",
      tag,
      summary: "Delete a saved view",
      description: "Deletes one of the project's saved views. No body.",
      auth: "key",
      pathParams: ZIdPathParams,
      responses: [{ status: 204, description: "Deleted." }],
      errors: { 404: "No such view in the project." },
    },
  ];
}

function versionOperations(kind: "copy" | "policy"): Operation[] {
  const Kind = kind === "copy" ? "Copy" : "Policy";
  const tag: TagName = kind === "copy" ? "Copy versions" : "Policy versions";
  const base = `/api/v1/${kind}-versions`;
  const what = kind === "copy" ? "reminder copy (templates per reminder key and stage)" : "policy (meters, thresholds, review schedule)";
  return [
    {
      operationId: `list${Kind}Versions`,
      method: "get",
      path: base,
      tag,
      summary: `List ${kind} versions`,
      description: `The project's saved versions of ${what}, newest first.`,
      auth: "key",
      responses: [{ status: 200, description: `The ${kind} versions.`, schema: `${Kind}VersionList` }],
    },
    {
      operationId: `create${Kind}Version`,
      method: "post",
      path: base,
      tag,
      summary: `Save a ${kind} version`,
      description: `Saves a new named version of ${what}; a saved version is never changed.`,
      auth: "key",
      body: {
        schema: `${Kind}VersionCreate`,
        maxBytes: VERSION_BYTES,
        description: `The version: a unique name, an optional note and parent, and the ${kind}.`,
      },
      responses: [{ status: 201, description: "The saved version.", schema: `${Kind}Version` }],
      errors: { 409: "A version of that name exists in the project." },
    },
    {
      operationId: `get${Kind}Version`,
      method: "get",
      path: `${base}/{id}`,
      tag,
      summary: `Read a ${kind} version`,
      description: `One saved ${kind} version.`,
      auth: "key",
      pathParams: ZIdPathParams,
      responses: [{ status: 200, description: "The version.", schema: `${Kind}Version` }],
    },
    {
      operationId: `makeDefault${Kind}Version`,
      method: "post",
      path: `${base}/{id}/default`,
      tag,
      summary: `Make a ${kind} version the default`,
      description: `Marks the version as the project's default ${kind} (the editor starts from it). No body.`,
      auth: "key",
      pathParams: ZIdPathParams,
      responses: [{ status: 200, description: "The version, now the default.", schema: `${Kind}Version` }],
    },
  ];
}

/** `POST /api/v1/otlp/v1/traces` and `/v1/logs` (docs/contract/otlp.md). */
function otlpExportOperation(signal: "traces" | "logs"): Operation {
  const [request, response, items] =
    signal === "traces"
      ? ["ExportTraceServiceRequest", "ExportTraceServiceResponse", "spans"]
      : ["ExportLogsServiceRequest", "ExportLogsServiceResponse", "log records"];
  return {
    operationId: signal === "traces" ? "otlpExportTraces" : "otlpExportLogs",
    method: "post",
    path: `/api/v1/otlp/v1/${signal}`,
    tag: "OpenTelemetry",
    summary: `OTLP/HTTP: export ${signal}`,
    description:
      `An OpenTelemetry exporter's ${request} (point the exporter at \`<server>/api/v1/otlp\`). ` +
      "A span event or log record with a `cuescope.type` attribute is one telemetry event, validated and stored exactly as by `POST /api/v1/ingest`; " +
      "GenAI spans are kept as model requests; anything else is kept raw for its run (docs/contract/otlp.md). " +
      `The key may be sent as \`Authorization: Bearer <key>\`, \`x-api-key: <key>\` or HTTP Basic with the key as the password. ` +
      "`Content-Encoding: gzip` is accepted. Errors answer a protobuf request with a google.rpc.Status, a JSON one with the usual error body.",
    auth: "exporter",
    body: {
      content: [
        { mediaType: "application/x-protobuf", schema: "binary" },
        { mediaType: "application/json", schema: "object" },
      ],
      maxBytes: MAX_BATCH_BYTES,
      description: `The ${request}, in protobuf or OTLP/JSON; the limit holds as sent and again once gunzipped.`,
    },
    responses: [
      {
        status: 200,
        description:
          `The ${response} in the request's encoding: empty when everything was stored (or known already), else \`partialSuccess\` ` +
          `with how many ${items} were rejected and an \`errorMessage\` naming each rejected part and why.`,
        content: [
          { mediaType: "application/x-protobuf", schema: "binary" },
          { mediaType: "application/json", schema: "object" },
        ],
      },
    ],
    errors: {
      400: "The body does not decode as the request (the message says where and why), or is not valid gzip.",
      413: `The body is larger than ${MAX_BATCH_BYTES / (1024 * 1024)} MB, as sent or once gunzipped.`,
      415: "The body is neither `application/x-protobuf` nor `application/json`, or its Content-Encoding is neither gzip nor none.",
    },
  };
}

export const OPERATIONS: readonly Operation[] = [
  {
    operationId: "ingestEvents",
    method: "post",
    path: "/api/v1/ingest",
    tag: "Ingest",
    summary: "Send a batch of events",
    description:
      `Stores up to ${MAX_BATCH_EVENTS} events (at most ${MAX_BATCH_BYTES / (1024 * 1024)} MB). Each event is validated on its own: ` +
      "the answer is 207 with one result per event, in order (`created`, `duplicate` for a re-send of the same event, `error` naming the field). " +
      "Event ids are chosen by the client, so a batch can be re-sent safely. The run's decisions are rebuilt in the background.",
    auth: "key",
    body: { schema: "IngestRequest", maxBytes: MAX_BATCH_BYTES, description: "`batch`: the events, in any order." },
    responses: [{ status: 207, description: "One result per event, and their counts.", schema: "IngestResponse" }],
    errors: {
      413: `The body is larger than ${MAX_BATCH_BYTES / (1024 * 1024)} MB, or the batch holds more than ${MAX_BATCH_EVENTS} events.`,
    },
  },
  otlpExportOperation("traces"),
  otlpExportOperation("logs"),
  {
    operationId: "listRunOtlpRecords",
    method: "get",
    path: "/api/v1/runs/{runId}/otlp",
    tag: "OpenTelemetry",
    summary: "A run's OpenTelemetry records",
    description:
      "What OTLP ingestion kept for the run besides telemetry events: model requests (GenAI spans: model, times, provider-reported tokens, in tokens) " +
      "and spans and log records kept raw, in time order, in pages (`nextCursor`), with the run's counts by kind and token sums. " +
      "`runId` may also be a trace id that holds records but no telemetry run.",
    auth: "key",
    pathParams: RUN_PATH,
    query: ZOtlpRecordsQuery,
    paramDescriptions: { kind: "Only records of this kind: `model_request`, `span` or `log`." },
    responses: [{ status: 200, description: "A page of the run's records, and its counts.", schema: "OtlpRecordsResponse" }],
    errors: { 404: "No run and no OpenTelemetry records of that id in the key's project." },
  },
  {
    operationId: "listRuns",
    method: "get",
    path: "/api/v1/runs",
    tag: "Runs",
    summary: "List runs",
    description: "One page of the project's runs, filtered and sorted; follow `nextCursor` for the next page.",
    auth: "key",
    query: ZRunListQuery,
    responses: [{ status: 200, description: "A page of runs.", schema: "RunListResponse" }],
  },
  {
    operationId: "exportRuns",
    method: "get",
    path: "/api/v1/runs/export",
    tag: "Runs",
    summary: "Export runs",
    description:
      "Every run over the list's filters, in its sort, streamed as a download: CSV (a header line naming each column's unit, e.g. " +
      "`dropped (reminders)`, then one line per run; text a spreadsheet would run as a formula is prefixed with `'`) or a JSON array " +
      "of run list items. `cursor` and `limit` are ignored. A failure after the download started ends it with an error marker " +
      '(CSV: a last line `#error,<code>,<message>`; JSON: a last element `{"error":…}` and no closing `]`).',
    auth: "key",
    query: ZRunListQuery.omit({ cursor: true, limit: true }).extend(ZExportFormat.shape),
    responses: [
      {
        status: 200,
        description: "The download.",
        content: [
          { mediaType: "text/csv", schema: "text" },
          { mediaType: "application/json", schema: "array-of-run" },
        ],
      },
    ],
  },
  {
    operationId: "getRunFacets",
    method: "get",
    path: "/api/v1/facets",
    tag: "Runs",
    summary: "Filter values of the runs list",
    description: "The agents, models and statuses the project's runs have.",
    auth: "key",
    responses: [{ status: 200, description: "The values.", schema: "RunFacets" }],
  },
  {
    operationId: "getRunSummary",
    method: "get",
    path: "/api/v1/runs/{runId}",
    tag: "Runs",
    summary: "A run's summary",
    description: "The run's list entry with its policy, copy, last meters and rebuild state (`staleEvents`, `rebuildPending`).",
    auth: "key",
    pathParams: RUN_PATH,
    responses: [{ status: 200, description: "The run.", schema: "RunSummary" }],
    errors: { 409: "The run's decisions cannot be rebuilt (e.g. its run.started has not arrived)." },
  },
  {
    operationId: "getRunDecisions",
    method: "get",
    path: "/api/v1/runs/{runId}/decisions",
    tag: "Runs",
    summary: "A run's rebuilt decisions",
    description:
      "Every turn's rebuilt reminder and Reviewer decisions and the run's findings. Waits for a pending rebuild (without doing it); " +
      "the header `x-cuescope-stale-events` counts the events the answer does not include yet. The answer is streamed as it is read; " +
      'one that a rebuild overtakes ends with an error mark (`,{"error":…}` and no closing brackets), so it never parses: download it again.',
    auth: "key",
    pathParams: RUN_PATH,
    responses: [
      {
        status: 200,
        description: "The decisions.",
        schema: "RunDecisions",
        headers: { "x-cuescope-stale-events": "Stored events the decisions do not include yet (0 when current)." },
      },
    ],
    errors: {
      409: "The run's decisions cannot be rebuilt.",
      503: "The project already has CUESCOPE_WHOLE_READS reads of a whole run under way; header Retry-After.",
    },
  },
  {
    operationId: "listRunEvents",
    method: "get",
    path: "/api/v1/runs/{runId}/events",
    tag: "Runs",
    summary: "A run's raw events",
    description: "The stored events in arrival order, one page at a time, optionally of one turn.",
    auth: "key",
    pathParams: RUN_PATH,
    query: ZEventsQuery,
    paramDescriptions: { turn: "Only the events of this turn." },
    responses: [{ status: 200, description: "A page of events.", schema: "EventsResponse" }],
  },
  {
    operationId: "getRunTimeline",
    method: "get",
    path: "/api/v1/runs/{runId}/timeline",
    tag: "Runs",
    summary: "A run's timeline",
    description:
      "The meter series, reminder, Reviewer and notification lanes and finding markers, for the whole run or a window of turns, within a point budget.",
    auth: "key",
    pathParams: RUN_PATH,
    query: ZTimelineQuery,
    paramDescriptions: { from: "First turn of the window.", to: "Last turn of the window.", maxPoints: "The point budget per series." },
    responses: [{ status: 200, description: "The timeline.", schema: "RunTimeline" }],
    errors: { 409: "The run's decisions cannot be rebuilt." },
  },
  {
    operationId: "getRunTriage",
    method: "get",
    path: "/api/v1/runs/{runId}/triage",
    tag: "Runs",
    summary: "Previous and next problem turns",
    description:
      "For each triage kind (a dropped reminder, a finding, a failed or uncertain delivery): how many turns of the run have one, and the nearest such turn before and after the given turn. Read from marks the rebuild stores.",
    auth: "key",
    pathParams: RUN_PATH,
    query: ZTriageQuery,
    paramDescriptions: { turn: "The turn to step from; without it, next is the first such turn and previous the last." },
    responses: [{ status: 200, description: "The neighbours of each kind.", schema: "RunTriage" }],
  },
  {
    operationId: "getTurnDetail",
    method: "get",
    path: "/api/v1/runs/{runId}/turns/{turn}",
    tag: "Runs",
    summary: "One turn",
    description: "Everything the turn inspector shows: the rebuilt decision, the turn's findings and events, and the neighbouring turns.",
    auth: "key",
    pathParams: TURN_PATH,
    responses: [{ status: 200, description: "The turn.", schema: "TurnDetail" }],
    errors: { 409: "The run's decisions cannot be rebuilt." },
  },
  ...commentOperations(),
  {
    operationId: "listReviewerCandidates",
    method: "get",
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
    responses: [{ status: 200, description: "A page of candidates.", schema: "ReviewerCandidatesResponse" }],
  },
  {
    operationId: "getReviewerFunnel",
    method: "get",
    path: "/api/v1/reviewer/funnel",
    tag: "Reviewer",
    summary: "Reviewer funnel",
    description: "Candidate → admission → dispatch → completion counts, with the exits, over the same filters as the candidates.",
    auth: "key",
    query: REVIEWER_FILTERS,
    paramDescriptions: {
      runId: "Only this run.",
      from: "Only runs started at or after this date-time.",
      to: "Only runs started at or before this date-time.",
    },
    responses: [{ status: 200, description: "The funnel.", schema: "ReviewerFunnel" }],
  },
  {
    operationId: "getTrends",
    method: "get",
    path: "/api/v1/trends",
    tag: "Trends",
    summary: "Trends per day",
    description:
      "Per day in the time zone `tz` (every day of the window, days without turns at zero): per reminder key the candidates, delivered and dropped " +
      "reminders with the drop rate; findings by code with their rate per 1,000 turns; Reviewer violations; the follow-up rate (contract §8, " +
      "association not effect) per copy version. Served from the 15-minute buckets each run's rebuild stores, so a run counts once its rebuild ran.",
    auth: "key",
    query: ZTrendsQuery,
    paramDescriptions: {
      tz: "An IANA time zone (e.g. `Europe/Paris`, `Asia/Kolkata`, `UTC`) whose days the counts are grouped by. Default `UTC`.",
      from: "The first day, `YYYY-MM-DD` in `tz`. Default: 13 days before `to`.",
      to: "The last day (included), `YYYY-MM-DD` in `tz`; at most 366 days after `from`. Default: today in `tz`.",
      copyVersion: "Only runs whose copy has this version id (an id from `copyVersions`).",
      policyVersion: "Only runs whose policy has this version id (an id from `policyVersions`).",
    },
    responses: [{ status: 200, description: "The days of the window.", schema: "TrendsResponse" }],
  },
  {
    operationId: "exportReviewerCandidates",
    method: "get",
    path: "/api/v1/reviewer/candidates/export",
    tag: "Reviewer",
    summary: "Export Reviewer candidates",
    description:
      "Every candidate over the filters, streamed as a download: CSV (a header line, then one line per candidate) or a JSON array of candidate rows. " +
      "A failure after the download started ends it with an error marker (CSV: a last line `#error,<code>,<message>`; JSON: a last element " +
      '`{"error":…}` and no closing `]`), so a partial file is never taken for a whole one.',
    auth: "key",
    query: REVIEWER_FILTERS.extend({ sort: ZReviewerCandidatesQuery.shape.sort, cursor: ZReviewerCandidatesQuery.shape.cursor }).extend(
      ZExportFormat.shape,
    ),
    paramDescriptions: {
      runId: "Only this run.",
      sort: "The order of the lines, as in the candidates list.",
      cursor: "Start after this page of the candidates list (of the same sort).",
    },
    responses: [
      {
        status: 200,
        description: "The download.",
        content: [
          { mediaType: "text/csv", schema: "text" },
          { mediaType: "application/json", schema: "array-of-row" },
        ],
      },
    ],
  },
  ...savedViewOperations(),
  ...versionOperations("copy"),
  ...versionOperations("policy"),
  {
    operationId: "startReplay",
    method: "post",
    path: "/api/v1/replay",
    tag: "Replay",
    summary: "Start a what-if replay",
    description:
      "Replays the filtered runs with a copy version, a policy version or both, as a background job. 202 with the job to poll; " +
      "200 with a finished job when one with the same inputs exists (`reused`). A request identical to a replay still queued or running " +
      "(same versions, same runs with the same events) answers 202 with that replay, so identical requests make one job. " +
      "Projects take turns: another project's queued replays do not hold this one up.",
    auth: "key",
    body: {
      schema: "ReplayRequest",
      maxBytes: 64 * 1024,
      description: "The versions to replay with (at least one), the run filters and a run limit.",
    },
    responses: [
      { status: 202, description: "The job, running: poll `GET /api/v1/replay/{id}`.", schema: "ReplayJob" },
      { status: 200, description: "A finished job with the same inputs.", schema: "ReplayJob" },
    ],
    errors: { 400: "The body does not parse, or no runs match the filters.", 404: "A version named in the body does not exist." },
  },
  {
    operationId: "listReplays",
    method: "get",
    path: "/api/v1/replay",
    tag: "Replay",
    summary: "Recent replays",
    description: "The project's 20 most recent replay jobs, newest first: status, versions, filters, progress and times, without results.",
    auth: "key",
    responses: [{ status: 200, description: "The replays.", schema: "ReplayList" }],
  },
  {
    operationId: "countReplayRuns",
    method: "get",
    path: "/api/v1/replay/matching",
    tag: "Replay",
    summary: "Runs and turns a replay would rebuild",
    description:
      "Counts the runs a replay with these filters and run limit would take (the newest `maxRuns` started runs) and their turns, " +
      "from the runs' stored counts: no event is read. `more` says more runs match than the limit takes.",
    auth: "key",
    query: ZReplayMatchingQuery,
    responses: [{ status: 200, description: "The counts.", schema: "ReplayMatching" }],
  },
  {
    operationId: "getReplay",
    method: "get",
    path: "/api/v1/replay/{id}",
    tag: "Replay",
    summary: "A replay job",
    description: "The job's progress, and its result once done.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The job.", schema: "ReplayJob" }],
  },
  {
    operationId: "cancelReplay",
    method: "post",
    path: "/api/v1/replay/{id}/cancel",
    tag: "Replay",
    summary: "Cancel a replay job",
    description: "Stops a running job; a finished job is answered as it is. No body.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The job.", schema: "ReplayJob" }],
  },
  {
    operationId: "getReplayTurn",
    method: "get",
    path: "/api/v1/replay/{id}/runs/{runId}/turns/{turn}",
    tag: "Replay",
    summary: "One turn of a replayed run",
    description:
      "The run's own decision for the turn next to the what-if decision with the replay's versions (rebuilt for this request on a job thread).",
    auth: "key",
    pathParams: ZIdPathParams.extend(ZRunPathParams.shape).extend(ZTurnParams.shape),
    paramDescriptions: { id: "The replay job's id." },
    responses: [{ status: 200, description: "The turn, both ways.", schema: "ReplayTurn" }],
    errors: { 409: "The run has not been rebuilt yet, or its decisions cannot be rebuilt." },
  },
  {
    operationId: "getHealth",
    method: "get",
    path: "/api/v1/health",
    tag: "Service",
    summary: "Health",
    description:
      "Which database this server uses, whether it answers within 3 s, and `eventLoop.worstLagMs`: the longest this server process's event loop was blocked in the last `eventLoop.windowS` (60) seconds, a stall every request waited through. No key needed, no data shown.",
    auth: "public",
    responses: [{ status: 200, description: "The database answers.", schema: "Health" }],
    errors: { 503: { description: "The database does not answer: `ok` is false, with the error; header Retry-After.", schema: "Health" } },
  },
  {
    operationId: "getOpenApiDocument",
    method: "get",
    path: "/api/v1/openapi.json",
    tag: "Service",
    summary: "This reference as OpenAPI 3.1",
    description:
      "The OpenAPI 3.1 document of this API, generated from the same contracts the server parses with. No key needed. Readable at /docs/api.",
    auth: "public",
    responses: [{ status: 200, description: "The OpenAPI document.", content: [{ mediaType: "application/json", schema: "object" }] }],
  },
];

/** A parameter's description, if the table has one. */
export function paramDescription(operation: Operation, name: string): string | undefined {
  return operation.paramDescriptions?.[name] ?? PARAMS[name];
}

function commentOperations(): Operation[] {
  const base = "/api/v1/runs/{runId}/comments";
  const notYours = "The comment was written with another key: only its author may change it (also: a cross-origin browser request).";
  const body = (what: string) => ({
    maxBytes: MAX_COMMENT_REQUEST_BYTES,
    description: `${what} The body is Markdown of 1–${MAX_COMMENT_CHARS.toLocaleString("en-US")} characters (CommonMark), rendered once as it is saved into the comment's \`html\`: sanitized, no raw HTML or images, links http(s) or relative only.`,
  });
  return [
    {
      operationId: "listComments",
      method: "get",
      path: base,
      tag: "Comments",
      summary: "A run's comments",
      description: `One page of the run's comments, oldest first: all of them, only those on the whole run (\`turn=run\`), or one turn's (\`turn=N\`). A page ends before \`limit\` when its bodies and HTML pass ${MAX_COMMENT_PAGE_CHARS.toLocaleString("en-US")} characters (\`nextCursor\` goes on).`,
      auth: "key",
      pathParams: RUN_PATH,
      query: ZCommentListQuery,
      paramDescriptions: { turn: "`run` for the comments on the whole run, a turn number for that turn's; leave out for all." },
      responses: [{ status: 200, description: "A page of comments.", schema: "CommentList" }],
    },
    {
      operationId: "createComment",
      method: "post",
      path: base,
      tag: "Comments",
      summary: "Comment on a run or a turn",
      description: "Writes a comment as the caller's key (a browser session writes as the key it was opened with).",
      auth: "key",
      pathParams: RUN_PATH,
      body: { schema: "CommentCreate", ...body("The comment, and the turn it is about (null or left out: the whole run).") },
      responses: [{ status: 201, description: "The comment.", schema: "Comment" }],
    },
    {
      operationId: "listCommentedTurns",
      method: "get",
      path: `${base}/turns`,
      tag: "Comments",
      summary: "Turns with comments",
      description: "The run's turns that have comments, with how many each, in turn order (the run page's notes lane).",
      auth: "key",
      pathParams: RUN_PATH,
      responses: [{ status: 200, description: "The turns.", schema: "CommentedTurns" }],
    },
    {
      operationId: "editComment",
      method: "patch",
      path: `${base}/{commentId}`,
      tag: "Comments",
      summary: "Edit your comment",
      description: "Replaces the text of a comment the caller wrote; it is marked edited.",
      auth: "key",
      pathParams: ZCommentPathParams,
      paramDescriptions: { commentId: "The comment's id, as the API gave it." },
      body: { schema: "CommentEdit", ...body("The new text.") },
      responses: [{ status: 200, description: "The edited comment.", schema: "Comment" }],
      errors: { 403: notYours },
    },
    {
      operationId: "deleteComment",
      method: "delete",
      path: `${base}/{commentId}`,
      tag: "Comments",
      summary: "Delete your comment",
      description: "Deletes a comment the caller wrote.",
      auth: "key",
      pathParams: ZCommentPathParams,
      paramDescriptions: { commentId: "The comment's id, as the API gave it." },
      responses: [{ status: 200, description: "It is gone.", schema: "CommentDeleted" }],
      errors: { 403: notYours },
    },
  ];
}
