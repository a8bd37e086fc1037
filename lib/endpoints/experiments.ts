import {
  ZAssignmentQuery,
  ZExperiment,
  ZExperimentArmPathParams,
  ZExperimentAssignment,
  ZExperimentCreate,
  ZExperimentList,
  ZExperimentPromotion,
  ZExperimentUpdate,
  ZExperimentResults,
  ZExperimentVersion,
  ZIdPathParams,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

const MAX_EXPERIMENT_BYTES = 32 * 1024;
const TAG = "Experiments";
const STALE = "The experiment changed since the `version` sent (another write came first): read it again and retry.";

/** Copy and policy experiments (contract §10, docs/contract/experiments.md). */
export const experimentsApi = {
  list: endpoint({
    id: "listExperiments",
    method: "GET",
    path: "/api/v1/experiments",
    tag: TAG,
    summary: "List experiments",
    description: "The project's experiments, newest first, each with its arms as stored (version ids, not their documents).",
    auth: "key",
    responses: [{ status: 200, description: "The experiments.", schema: ZExperimentList }],
  }),
  create: endpoint({
    id: "createExperiment",
    access: "admin",
    method: "POST",
    path: "/api/v1/experiments",
    tag: TAG,
    summary: "Create an experiment",
    description:
      "Saves a draft: a name unique in the project, the reminder key it is about, and two or more arms, each with a unique name, an integer weight >= 0 (the weights sum to more than 0), a planned number of runs >= 1 and optionally a saved copy and/or policy version of this project. An arm with neither is a control (the agent's own copy and policy); a holdout is a policy version whose key section has `remind: false`.",
    auth: "key",
    body: { schema: ZExperimentCreate, maxBytes: MAX_EXPERIMENT_BYTES, description: "The draft." },
    responses: [{ status: 201, description: "The draft, status `draft`, version 1.", schema: ZExperiment }],
    errors: {
      400: "A field is invalid (named by `path`): fewer than 2 arms, two arms of one name, a weight or planned size out of range, weights summing to 0, a key that is not a reminder key, a version id that is not one of this project's saved versions.",
      409: "The project has an experiment of that name.",
    },
  }),
  get: endpoint({
    id: "getExperiment",
    method: "GET",
    path: "/api/v1/experiments/{id}",
    tag: TAG,
    summary: "Read an experiment",
    description:
      "One experiment with each arm's copy and policy versions resolved to their documents, so a client can render with them (the SDK's `cuescope.experiment(id)`).",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The experiment.", schema: ZExperiment }],
    errors: { 404: "No such experiment in the project." },
  }),
  results: endpoint({
    id: "getExperimentResults",
    method: "GET",
    path: "/api/v1/experiments/{id}/results",
    tag: TAG,
    summary: "An experiment's results per arm",
    description:
      "Per arm (contract §10): its ended runs counted (their arm is their assignment), live and mismatched runs apart, and each measure with its counts, " +
      "95% interval and difference from the control (the first arm): follow-up after a due reminder and of delivered reminders, drop rate per key, " +
      "reminder bytes per turn, findings per 1,000 turns, runs finished, out of requests and out of time, requests and time left at the end. Ratios use " +
      "the run as the unit (delta method, Student's t). Fixed horizon: `verdict` is null until every arm has its planned ended runs, then one per arm on " +
      "the key's follow-up after a due reminder at the Bonferroni-adjusted level. Served from sums each run's rebuild stores.",
    auth: "key",
    pathParams: ZIdPathParams,
    responses: [{ status: 200, description: "The results.", schema: ZExperimentResults }],
    errors: { 404: "No such experiment in the project." },
  }),
  update: endpoint({
    id: "updateExperiment",
    access: "admin",
    method: "PUT",
    path: "/api/v1/experiments/{id}",
    tag: TAG,
    summary: "Change a draft",
    description:
      "Replaces a draft's name, note, key and arms, validated as on create. The body carries the `version` read: a write over a newer version is refused, never merged. Once started an experiment's arms never change.",
    auth: "key",
    pathParams: ZIdPathParams,
    body: { schema: ZExperimentUpdate, maxBytes: MAX_EXPERIMENT_BYTES, description: "The whole draft, with the `version` read." },
    responses: [{ status: 200, description: "The draft, its version raised by one.", schema: ZExperiment }],
    errors: {
      404: "No such experiment in the project.",
      409: `Not a draft (arms are frozen once started; create a new experiment), a name the project has, or: ${STALE}`,
    },
  }),
  start: endpoint({
    id: "startExperiment",
    access: "admin",
    method: "POST",
    path: "/api/v1/experiments/{id}/start",
    tag: TAG,
    summary: "Start an experiment",
    description: "`draft` → `running`: from now on assignments are answered, and the arms never change.",
    auth: "key",
    pathParams: ZIdPathParams,
    body: { schema: ZExperimentVersion, maxBytes: 1024, description: "The `version` read." },
    responses: [{ status: 200, description: "The experiment, running.", schema: ZExperiment }],
    errors: { 404: "No such experiment in the project.", 409: `Not a draft, or: ${STALE}` },
  }),
  stop: endpoint({
    id: "stopExperiment",
    access: "admin",
    method: "POST",
    path: "/api/v1/experiments/{id}/stop",
    tag: TAG,
    summary: "Stop an experiment",
    description: "`running` → `stopped`: no more assignments. Runs keep the arm they were in, and their results stay.",
    auth: "key",
    pathParams: ZIdPathParams,
    body: { schema: ZExperimentVersion, maxBytes: 1024, description: "The `version` read." },
    responses: [{ status: 200, description: "The experiment, stopped.", schema: ZExperiment }],
    errors: { 404: "No such experiment in the project.", 409: `Not running, or: ${STALE}` },
  }),
  assignment: endpoint({
    id: "getExperimentAssignment",
    access: "ingest",
    method: "GET",
    path: "/api/v1/experiments/{id}/assignment",
    tag: TAG,
    summary: "A run's arm",
    description:
      "The arm of a run by contract §10's assignment (SHA-256 of `experimentId:runId`, split by the weights), with the copy and policy it renders with. The SDK computes the same arm locally. The agent then sends `experiment: { id, arm }` in run.started.",
    auth: "key",
    pathParams: ZIdPathParams,
    query: ZAssignmentQuery,
    paramDescriptions: { runId: "The run's id (1–128 characters), as its events will carry it." },
    responses: [{ status: 200, description: "The run's arm.", schema: ZExperimentAssignment }],
    errors: {
      404: "No such experiment in the project.",
      409: "The experiment is not running (a draft or stopped): the message names its status.",
    },
  }),
  promote: endpoint({
    id: "promoteExperimentArm",
    access: "admin",
    method: "POST",
    path: "/api/v1/experiments/{id}/arms/{arm}/promote",
    tag: TAG,
    summary: "Promote an arm",
    description:
      "Makes the arm's copy version and/or policy version the project's defaults (what the copy editor and what-if replays start from), in one write; no recorded run changes. Concurrent promotes and edits: the body's `version` must be the experiment's current one, and a promote raises it, so of two writes that read the same version one is refused with 409 (never last-writer-wins).",
    auth: "key",
    pathParams: ZExperimentArmPathParams,
    paramDescriptions: { arm: "The arm's name." },
    body: { schema: ZExperimentVersion, maxBytes: 1024, description: "The experiment's `version` read." },
    responses: [
      { status: 200, description: "The experiment (its version raised) and the project's defaults now.", schema: ZExperimentPromotion },
    ],
    errors: {
      400: "The arm has neither a copy nor a policy version (a control): nothing to promote.",
      404: "No such experiment in the project, or no arm of that name.",
      409: STALE,
    },
  }),
};
