import "server-only";
import { listCopyVersions, listPolicyVersions } from "@/lib/server/versions/versions";
import { defineLoader } from "./define-loader";

/** GET /api/v1/copy-versions: the project's saved copy versions, newest first. */
export const copyVersionsLoader = defineLoader({
  load: async (db, projectId) => ({ versions: await listCopyVersions(db, projectId) }),
});

/** GET /api/v1/policy-versions: the project's saved policy versions, newest first. */
export const policyVersionsLoader = defineLoader({
  load: async (db, projectId) => ({ versions: await listPolicyVersions(db, projectId) }),
});
