import "server-only";
import * as alerts from "./alerts";
import * as audit from "./audit";
import * as comments from "./comments";
import * as compare from "./compare";
import * as experiments from "./experiments";
import * as keys from "./keys";
import * as members from "./members";
import { isLoader, type Loader } from "./define-loader";
import * as otlp from "./otlp";
import * as replay from "./replay";
import * as reviewer from "./reviewer";
import * as reviews from "./reviews";
import * as runs from "./runs";
import * as trends from "./trends";
import * as versions from "./versions";

/**
 * Every GET endpoint's loader, by endpoint id: each loader exported by the modules above is served
 * as its endpoint's route (lib/server/http/api.ts) and answers the pages' prefetch of its queries
 * (./prefetch.ts). A loader added to one of these modules needs no other change.
 */
export const LOADERS: ReadonlyMap<string, Loader> = (() => {
  const byId = new Map<string, Loader>();
  for (const group of [
    alerts,
    audit,
    comments,
    compare,
    experiments,
    keys,
    members,
    otlp,
    replay,
    reviewer,
    reviews,
    runs,
    trends,
    versions,
  ]) {
    for (const loader of Object.values(group).filter(isLoader)) {
      if (byId.has(loader.endpoint.id)) throw new Error(`two loaders for the endpoint ${loader.endpoint.id}`);
      byId.set(loader.endpoint.id, loader);
    }
  }
  return byId;
})();
