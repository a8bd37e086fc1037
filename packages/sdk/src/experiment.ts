// Copy and policy experiments in the SDK (contract §10): reading an experiment's definition from the
// server, and the run.started fields of a run in it. The arm is assigned here, in the agent's
// process, by lib/core's assignArm (bundled in): the same function the server's
// `GET /api/v1/experiments/:id/assignment` answers with, so both always agree.
import { ZExperiment, type TExperiment, type TResolvedExperimentArm } from "../../../lib/contracts/experiments";
import { assignArm } from "../../../lib/core/experiment-assignment";

/** An experiment as `GET /api/v1/experiments/:id` answers it: its arms with their copy and policy documents. */
export type Experiment = TExperiment;
/** One arm of an experiment, with the copy and policy it renders with (null: the run's own). */
export type ExperimentArm = TResolvedExperimentArm;

export type ExperimentRead =
  | { ok: true; experiment: Experiment }
  | { ok: false; message: string; kind: "rejected" | "failed"; status?: number; retryAfter?: string | null };

/** GET `{base}/api/v1/experiments/{id}` with the key, parsed with the contract; `timeoutMs` (0: none) covers the answer too. */
export async function readExperiment(
  base: string,
  apiKey: string,
  doFetch: typeof fetch,
  id: string,
  timeoutMs: number,
): Promise<ExperimentRead> {
  const url = new URL(`/api/v1/experiments/${encodeURIComponent(id)}`, base).toString();
  const controller = timeoutMs > 0 && typeof AbortController === "function" ? new AbortController() : null;
  const timeout = controller ? setTimeout(() => controller.abort(), timeoutMs) : null;
  (timeout as { unref?: () => void } | null)?.unref?.();
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      headers: { accept: "application/json", authorization: `Bearer ${apiKey}` },
      ...(controller ? { signal: controller.signal } : {}),
    });
    text = await response.text();
  } catch (error) {
    const why = controller?.signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    return { ok: false, kind: "failed", message: `cannot read ${url}: ${why}` };
  } finally {
    if (timeout) clearTimeout(timeout);
  }
  if (response.status !== 200) {
    return {
      ok: false,
      kind: "rejected",
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      message: `${url} answered ${response.status}: ${errorText(text)}`,
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, kind: "rejected", status: response.status, message: `${url} answered with text that is not JSON` };
  }
  const parsed = ZExperiment.safeParse(body);
  if (!parsed.success) return { ok: false, kind: "rejected", status: response.status, message: `${url} answered an unexpected experiment` };
  return { ok: true, experiment: parsed.data };
}

/**
 * The arm of `runId` in `experiment` and the run.started fields it sets: its copy and policy (each
 * replaces the run's own when the arm has one) and `experiment: { id, arm }`. A string says why the
 * run cannot take part (the experiment is not running).
 */
export function experimentFields(
  experiment: Experiment,
  runId: string,
):
  | {
      arm: ExperimentArm;
      fields: { experiment: { id: string; arm: string }; policy?: ExperimentArm["policy"]; copy?: ExperimentArm["copy"] };
    }
  | string {
  if (experiment.status !== "running")
    return `experiment ${JSON.stringify(experiment.name)} is ${experiment.status}: runs are assigned only while it is running (read it again with experiment(id))`;
  const arm = assignArm(experiment.id, runId, experiment.arms);
  return {
    arm,
    fields: {
      experiment: { id: experiment.id, arm: arm.name },
      ...(arm.policy ? { policy: arm.policy } : {}),
      ...(arm.copy ? { copy: arm.copy } : {}),
    },
  };
}

function errorText(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text.slice(0, 500);
  } catch {
    return text.slice(0, 500);
  }
}
