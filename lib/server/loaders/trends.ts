import "server-only";
import { trendsApi } from "@/lib/endpoints/trends";
import { getEffectiveness, getRunEffectiveness } from "@/lib/server/trends/effectiveness";
import { getTrends } from "@/lib/server/trends/trends";
import { defineLoader } from "./define-loader";

/** Per day of the asked time zone, the stored trend buckets of the window summed. */
export const trendsLoader = defineLoader(trendsApi.trends, (db, projectId, { query }) => getTrends(db, projectId, query));

/** Delivered vs dropped follow-up and fatigue over the window (contract §10), from the same rollups. */
export const effectivenessLoader = defineLoader(trendsApi.effectiveness, (db, projectId, { query }) =>
  getEffectiveness(db, projectId, query),
);

/** One run's delivered vs dropped follow-up and fatigue (contract §10), from its stored buckets. */
export const runEffectivenessLoader = defineLoader(trendsApi.runEffectiveness, (db, projectId, { path }) =>
  getRunEffectiveness(db, projectId, path.runId),
);
