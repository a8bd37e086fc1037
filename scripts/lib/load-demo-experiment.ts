import { ZPolicy, type TCopy, type TExperimentCreate, type TPolicy } from "@/lib/contracts";
import type { IngestSink } from "@/lib/client/ingest-sink";
import { DEMO_EXPERIMENT, demoExperimentRuns, HOLDOUT_POLICY, URGENT_REQUESTS_COPY } from "@/lib/demo/experiment-demo";
import type { Database } from "@/lib/server/db";
import type { Caller } from "@/lib/server/auth/keys";
import { createExperiment, listExperiments, startExperiment } from "@/lib/server/experiments/experiments";
import { COPY_VERSIONS, POLICY_VERSIONS } from "@/lib/server/versions/kinds";
import { createCopyVersion, createPolicyVersion, listVersions } from "@/lib/server/versions/versions";

/** What the demo experiment needs of a project: its saved versions and experiments, found by name or made. */
export interface DemoExperimentStore {
  copyVersion(name: string, copy: TCopy): Promise<string>;
  policyVersion(name: string, policy: TPolicy): Promise<string>;
  /** The running experiment of that name: created and started when the project has none. */
  runningExperiment(body: TExperimentCreate): Promise<string>;
}

const URGENT_COPY_NAME = "urgent requests notice (demo)";
/** The demo experiment's id when it is stored directly (over the API the server chooses one). */
export const DEMO_EXPERIMENT_ID = "demo-requests-copy";
const HOLDOUT_POLICY_NAME = "requests notice held out (demo)";

/**
 * The demo experiment (lib/demo/experiment-demo.ts) in a project: its urgent copy and holdout policy
 * saved as versions, the experiment created and started, then its runs sent through `sink` in
 * batches of 500. Loading again changes nothing: versions and the experiment are found by name, and
 * events are idempotent.
 */
export async function loadDemoExperiment(
  store: DemoExperimentStore,
  sink: IngestSink,
  now = new Date().toISOString(),
): Promise<{ runs: number; events: number; errors: number }> {
  const [control, urgent, holdout] = DEMO_EXPERIMENT.arms;
  const copyVersionId = await store.copyVersion(URGENT_COPY_NAME, URGENT_REQUESTS_COPY);
  const policyVersionId = await store.policyVersion(HOLDOUT_POLICY_NAME, ZPolicy.parse(HOLDOUT_POLICY));
  const planned = DEMO_EXPERIMENT.plannedRuns;
  const id = await store.runningExperiment({
    name: DEMO_EXPERIMENT.name,
    note: DEMO_EXPERIMENT.note,
    key: DEMO_EXPERIMENT.key,
    arms: [
      { name: control.name, weight: control.weight, plannedRuns: planned },
      { name: urgent.name, weight: urgent.weight, plannedRuns: planned, copyVersionId },
      { name: holdout.name, weight: holdout.weight, plannedRuns: planned, policyVersionId },
    ],
  });
  const runs = demoExperimentRuns(id, now);
  let events = 0;
  let errors = 0;
  for (const run of runs) {
    for (let start = 0; start < run.events.length; start += 500) {
      const answer = await sink(run.events.slice(start, start + 500));
      errors += answer.summary.error;
      events += answer.results.length;
    }
  }
  return { runs: runs.length, events, errors };
}

/** The store over the database itself, acting as `caller` (who saved the versions). */
export function databaseStore(db: Database, caller: Caller): DemoExperimentStore {
  const { projectId } = caller;
  return {
    async copyVersion(name, copy) {
      const found = (await listVersions(db, projectId, COPY_VERSIONS)).find((v) => v.name === name);
      return found?.id ?? (await createCopyVersion(db, caller, { name, copy })).id;
    },
    async policyVersion(name, policy) {
      const found = (await listVersions(db, projectId, POLICY_VERSIONS)).find((v) => v.name === name);
      return found?.id ?? (await createPolicyVersion(db, caller, { name, policy })).id;
    },
    async runningExperiment(body) {
      const found = (await listExperiments(db, projectId)).find((e) => e.name === body.name);
      // A fixed id: the demo's assignments, and so its results, are the same on every fresh database.
      const experiment = found ?? (await createExperiment(db, caller, body, { id: DEMO_EXPERIMENT_ID }));
      if (experiment.status === "draft") await startExperiment(db, caller, experiment.id, experiment.version);
      return experiment.id;
    },
  };
}

/** The same over a running server's API, with a key of the project. */
export function httpStore(baseUrl: string, secret: string): DemoExperimentStore {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${secret}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await response.json().catch(() => null)) as T & { error?: { message: string } };
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${answer?.error?.message ?? "no message"}`);
    return answer;
  };
  const version = async (kind: "copy" | "policy", name: string, document: unknown) => {
    const list = await call<{ versions: { id: string; name: string }[] }>("GET", `/api/v1/${kind}-versions`);
    const found = list.versions.find((v) => v.name === name);
    return found?.id ?? (await call<{ id: string }>("POST", `/api/v1/${kind}-versions`, { name, [kind]: document })).id;
  };
  return {
    copyVersion: (name, copy) => version("copy", name, copy),
    policyVersion: (name, policy) => version("policy", name, policy),
    async runningExperiment(body) {
      const list = await call<{ experiments: { id: string; name: string; status: string; version: number }[] }>(
        "GET",
        "/api/v1/experiments",
      );
      const experiment =
        list.experiments.find((e) => e.name === body.name) ??
        (await call<{ id: string; status: string; version: number }>("POST", "/api/v1/experiments", body));
      if (experiment.status === "draft")
        await call("POST", `/api/v1/experiments/${encodeURIComponent(experiment.id)}/start`, { version: experiment.version });
      return experiment.id;
    },
  };
}
