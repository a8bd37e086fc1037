import "server-only";
// The GETs the pages also read (the list, one experiment, its results) are loaders: lib/server/loaders/experiments.ts.
import { experimentsApi } from "@/lib/endpoints/experiments";
import {
  assignRun,
  createExperiment,
  promoteArm,
  startExperiment,
  stopExperiment,
  updateExperiment,
} from "@/lib/server/experiments/experiments";
import { endpointRoute } from "./endpoint-route";

/** Saves a draft (201; 409 for a name the project has). */
export const createExperimentRoute = endpointRoute(experimentsApi.create, ({ input, db, auth }) => createExperiment(db, auth, input.body));

/** Changes a draft over the version read (409: not a draft, or a newer version). */
export const updateExperimentRoute = endpointRoute(experimentsApi.update, ({ input, db, auth }) =>
  updateExperiment(db, auth, input.path.id, input.body),
);

export const startExperimentRoute = endpointRoute(experimentsApi.start, ({ input, db, auth }) =>
  startExperiment(db, auth, input.path.id, input.body.version),
);

export const stopExperimentRoute = endpointRoute(experimentsApi.stop, ({ input, db, auth }) =>
  stopExperiment(db, auth, input.path.id, input.body.version),
);

/** A run's arm, while the experiment runs. */
export const experimentAssignmentRoute = endpointRoute(experimentsApi.assignment, ({ input, db, auth }) =>
  assignRun(db, auth.projectId, input.path.id, input.query.runId),
);

/** An arm's versions made the project's defaults, over the experiment version read. */
export const promoteArmRoute = endpointRoute(experimentsApi.promote, ({ input, db, auth }) =>
  promoteArm(db, auth, input.path.id, input.path.arm, input.body.version),
);
