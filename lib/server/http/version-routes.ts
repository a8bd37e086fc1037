import "server-only";
import type { TVersionCreateOf, TVersionKind } from "@/lib/contracts";
import { copyVersionsApi, policyVersionsApi } from "@/lib/endpoints/versions";
import { COPY_VERSIONS, POLICY_VERSIONS, type VersionKind } from "@/lib/server/versions/kinds";
import { createVersion, getVersion, setDefault } from "@/lib/server/versions/versions";
import { endpointRoute } from "./endpoint-route";

/**
 * The writes and single reads of one kind of version (the lists are lib/server/loaders/versions.ts).
 * `api` is the kind's endpoints, whose create body is parsed with the kind's contract (TS cannot
 * tie the two unions together, hence the one cast).
 */
function versionRoutes<K extends TVersionKind>(of: VersionKind<K>, api: typeof copyVersionsApi | typeof policyVersionsApi) {
  return {
    create: endpointRoute(api.create, ({ input, db, auth }) => createVersion(db, auth, of, input.body as TVersionCreateOf<K>)),
    get: endpointRoute(api.get, ({ input, db, auth }) => getVersion(db, auth.projectId, of, input.path.id)),
    makeDefault: endpointRoute(api.makeDefault, async ({ input, db, auth }) => {
      await setDefault(db, auth, of.kind, input.path.id);
      return getVersion(db, auth.projectId, of, input.path.id);
    }),
  };
}

const copyRoutes = versionRoutes(COPY_VERSIONS, copyVersionsApi);
export const createCopyVersionRoute = copyRoutes.create;
export const getCopyVersionRoute = copyRoutes.get;
export const defaultCopyVersionRoute = copyRoutes.makeDefault;

const policyRoutes = versionRoutes(POLICY_VERSIONS, policyVersionsApi);
export const createPolicyVersionRoute = policyRoutes.create;
export const getPolicyVersionRoute = policyRoutes.get;
export const defaultPolicyVersionRoute = policyRoutes.makeDefault;
