import "server-only";
import { experimentsApi } from "@/lib/endpoints/experiments";
import { getExperiment, listExperiments } from "@/lib/server/experiments/experiments";
import { getExperimentResults } from "@/lib/server/experiments/results";
import { defineLoader } from "./define-loader";

/** The project's experiments, newest first. */
export const experimentListLoader = defineLoader(experimentsApi.list, async (db, projectId) => ({
  experiments: await listExperiments(db, projectId),
}));

/** One experiment, its arms' copy and policy resolved. */
export const experimentLoader = defineLoader(experimentsApi.get, (db, projectId, { path }) => getExperiment(db, projectId, path.id));

/** An experiment's results per arm, from the sums its runs' rebuilds keep. */
export const experimentResultsLoader = defineLoader(experimentsApi.results, (db, projectId, { path }) =>
  getExperimentResults(db, projectId, path.id),
);
