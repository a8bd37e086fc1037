import { queryOptions } from "@tanstack/react-query";
import type { TExperimentCreate, TExperimentUpdate } from "@/lib/contracts";
import { experimentsApi } from "@/lib/endpoints/experiments";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";

/** Query keys: one factory, so invalidation and prefetch agree with the hooks. */
export const experimentKeys = {
  all: ["experiments"] as const,
  list: () => ["experiments", "list"] as const,
  one: (id: string) => ["experiments", "one", id] as const,
  results: (id: string) => ["experiments", "results", id] as const,
};

/** GET /api/v1/experiments: the project's experiments, newest first. */
export function experimentsQuery() {
  const input = { path: {}, query: {} };
  return withEndpoint(
    experimentsApi.list,
    input,
    queryOptions({ queryKey: experimentKeys.list(), queryFn: endpointFetch(experimentsApi.list, input) }),
  );
}

/** GET /api/v1/experiments/:id: one experiment with its arms' copy and policy. */
export function experimentQuery(id: string) {
  const input = { path: { id }, query: {} };
  return withEndpoint(
    experimentsApi.get,
    input,
    queryOptions({ queryKey: experimentKeys.one(id), queryFn: endpointFetch(experimentsApi.get, input) }),
  );
}

/** GET /api/v1/experiments/:id/results: per arm, each measure with its interval. */
export function experimentResultsQuery(id: string) {
  const input = { path: { id }, query: {} };
  return withEndpoint(
    experimentsApi.results,
    input,
    queryOptions({ queryKey: experimentKeys.results(id), queryFn: endpointFetch(experimentsApi.results, input) }),
  );
}

export function createExperiment(body: TExperimentCreate) {
  return callEndpoint(experimentsApi.create, {}, body);
}

/** Replaces a draft's design, over the version read (a newer version answers 409). */
export function updateExperiment(id: string, body: TExperimentUpdate) {
  return callEndpoint(experimentsApi.update, { path: { id } }, body);
}

/** Starts, stops (over the version read) or promotes an arm's versions to the project's defaults. */
export function startExperiment(id: string, version: number) {
  return callEndpoint(experimentsApi.start, { path: { id } }, { version });
}

export function stopExperiment(id: string, version: number) {
  return callEndpoint(experimentsApi.stop, { path: { id } }, { version });
}

export function promoteArm(id: string, arm: string, version: number) {
  return callEndpoint(experimentsApi.promote, { path: { id, arm } }, { version });
}
