import {
  ZIdPathParams,
  ZReplayCompareQuery,
  ZReplayWhatIfRun,
  ZRunComparison,
  ZReplayJob,
  ZReplayList,
  ZReplayMatching,
  ZReplayMatchingQuery,
  ZReplayRequest,
  ZReplayTurn,
  ZRunPathParams,
  ZTurnParams,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

/** What-if replays of stored runs with another copy or policy version (background jobs). */
export const replayApi = {
  start: endpoint({
    id: "startReplay",
    method: "POST",
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
      schema: ZReplayRequest,
      maxBytes: 64 * 1024,
      description: "The versions to replay with (at least one), the run filters and a run limit.",
    },
    responses: [
      { status: 202, description: "The job, running: poll `GET /api/v1/replay/{id}`.", schema: ZReplayJob },
      { status: 200, description: "A finished job with the same inputs.", schema: ZReplayJob },
    ],
    errors: { 400: "The body does not parse, or no runs match the filters.", 404: "A version named in the body does not exist." },
  }),
  list: endpoint({
    id: "listReplays",
    method: "GET",
    path: "/api/v1/replay",
    tag: "Replay",
    summary: "Recent replays",
    description: "The project's 20 most recent replay jobs, newest first: status, versions, filters, progress and times, without results.",
    auth: "key",
    responses: [{ status: 200, description: "The replays.", schema: ZReplayList }],
  }),
  matching: endpoint({
    id: "countReplayRuns",
    method: "GET",
    path: "/api/v1/replay/matching",
    tag: "Replay",
    summary: "Runs and turns a replay would rebuild",
    description:
      "Counts the runs a replay with these filters and run limit would take (the newest `maxRuns` started runs) and their turns, " +
      "from the runs' stored counts: no event is read. `more` says more runs match than the limit takes.",
    auth: "key",
    query: ZReplayMatchingQuery,
    responses: [{ status: 200, description: "The counts.", schema: ZReplayMatching }],
  }),
  job: endpoint({
    id: "getReplay",
    method: "GET",
    path: "/api/v1/replay/{id}",
    tag: "Replay",
    summary: "A replay job",
    description: "The job's progress, and its result once done.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The job.", schema: ZReplayJob }],
  }),
  cancel: endpoint({
    id: "cancelReplay",
    method: "POST",
    path: "/api/v1/replay/{id}/cancel",
    tag: "Replay",
    summary: "Cancel a replay job",
    description: "Stops a running job; a finished job is answered as it is. No body.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The job.", schema: ZReplayJob }],
  }),
  turn: endpoint({
    id: "getReplayTurn",
    method: "GET",
    path: "/api/v1/replay/{id}/runs/{runId}/turns/{turn}",
    tag: "Replay",
    summary: "One turn of a replayed run",
    description:
      "The run's own decision for the turn next to the what-if decision with the replay's versions (rebuilt for this request on a job thread).",
    auth: "key",
    pathParams: ZIdPathParams.extend(ZRunPathParams.shape).extend(ZTurnParams.shape),
    paramDescriptions: { id: "The replay job's id." },
    responses: [{ status: 200, description: "The turn, both ways.", schema: ZReplayTurn }],
    errors: { 409: "The run has not been rebuilt yet, or its decisions cannot be rebuilt." },
  }),
  compare: endpoint({
    id: "compareReplayRun",
    method: "GET",
    path: "/api/v1/replay/{id}/runs/{runId}/compare",
    tag: "Replay",
    summary: "A run against its what-if",
    description:
      "Compares a run the replay replayed (A: its recorded decisions, as last rebuilt) with its what-if under the replay's versions (B), " +
      "turn by turn, answered as `GET /api/v1/compare` answers for two runs: the first turn where their decisions differ (each reminder's " +
      "key, subject, kind, stage and fate, and the Reviewer candidate and admission; not the wording), the next or previous difference from " +
      "a turn, and both decisions at the turn found. The what-if is rebuilt once per replay and stored rebuild, on a job thread.",
    auth: "key",
    pathParams: ZIdPathParams.extend(ZRunPathParams.shape),
    query: ZReplayCompareQuery,
    paramDescriptions: {
      id: "The replay job's id.",
      turn: "The turn to step from (next, previous) or to show (at); without it, the first difference (next, at) or the last (previous).",
      direction: "next (default), previous or at.",
    },
    responses: [{ status: 200, description: "The comparison.", schema: ZRunComparison }],
    errors: {
      404: "No such replay in the project, or the run is not one it replayed; the message names which.",
      409: "The run has not been rebuilt yet, or its decisions cannot be rebuilt.",
    },
  }),
  whatIfRun: endpoint({
    id: "getReplayWhatIfRun",
    method: "GET",
    path: "/api/v1/replay/{id}/runs/{runId}/timeline",
    tag: "Replay",
    summary: "A run's what-if as a timeline",
    description:
      "The what-if of a run the replay replayed, as the run comparison draws a run: its whole-run timeline (the stage and limit lines of " +
      "the replay's policy version when it has one, else the run's own) and its reminders and findings counted. Its findings leave out " +
      "those that compare with the agent's record (no agent ran with the what-if).",
    auth: "key",
    pathParams: ZIdPathParams.extend(ZRunPathParams.shape),
    paramDescriptions: { id: "The replay job's id." },
    responses: [{ status: 200, description: "The what-if's timeline and counts.", schema: ZReplayWhatIfRun }],
    errors: {
      404: "No such replay in the project, or the run is not one it replayed; the message names which.",
      409: "The run has not been rebuilt yet, or its decisions cannot be rebuilt.",
    },
  }),
};
