import {
  ZIdPathParams,
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
};
