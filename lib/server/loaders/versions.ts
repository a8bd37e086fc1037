import "server-only";
import { copyVersionsApi, policyVersionsApi } from "@/lib/endpoints/versions";
import { VERSION_KIND } from "@/lib/server/versions/kinds";
import { listVersions } from "@/lib/server/versions/versions";
import { defineLoader } from "./define-loader";

/** The project's saved copy versions, newest first. */
export const copyVersionsLoader = defineLoader(copyVersionsApi.list, async (db, projectId) => ({
  versions: await listVersions(db, projectId, VERSION_KIND.copy),
}));

/** The project's saved policy versions, newest first. */
export const policyVersionsLoader = defineLoader(policyVersionsApi.list, async (db, projectId) => ({
  versions: await listVersions(db, projectId, VERSION_KIND.policy),
}));
