import "server-only";
import type { TVersionKind } from "@/lib/contracts";
import { VERSION_KIND } from "@/lib/server/versions/kinds";
import { listVersions } from "@/lib/server/versions/versions";
import { defineLoader } from "./define-loader";

/** GET /api/v1/<kind>-versions: the project's saved versions of one kind, newest first. */
function versionsLoader<K extends TVersionKind>(kind: K) {
  return defineLoader({
    load: async (db, projectId) => ({ versions: await listVersions(db, projectId, VERSION_KIND[kind]) }),
  });
}

export const copyVersionsLoader = versionsLoader("copy");
export const policyVersionsLoader = versionsLoader("policy");
