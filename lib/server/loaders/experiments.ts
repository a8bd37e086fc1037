import "server-only";
import { experimentsApi } from "@/lib/endpoints/experiments";
import { getExperiment, listExperiments } from "@/lib/server/experiments/experiments";
import { defineLoader } from "./define-loader";

/** The project's experiments, newest first. */
export const experimentListLoader = defineLoader(experimentsApi.list, async (db, projectId) => ({
  experiments: await listExperiments(db, projectId),
}));

/** One experiment, its arms' copy and policy resolved. */
export const experimentLoader = defineLoader(experimentsApi.get, (db, projectId, { path }) => getExperiment(db, projectId, path.id));
