import "server-only";
import { ZIdPathParams, type TVersionKind } from "@/lib/contracts";
import { COPY_VERSIONS, POLICY_VERSIONS, type VersionKind } from "@/lib/server/versions/kinds";
import { createVersion, getVersion, setDefault } from "@/lib/server/versions/versions";
import { copyVersionsLoader, policyVersionsLoader } from "@/lib/server/loaders/versions";
import type { Loader } from "@/lib/server/loaders/define-loader";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { loaderRoute } from "./loader-route";
import { readJsonBody } from "./request";
import { parseWith } from "@/lib/server/errors";

const MAX_VERSION_BYTES = 256 * 1024;
type IdParams = { id: string };

/** A version's id from the path, checked like any other parameter. */
function idOf(params: IdParams): string {
  return parseWith(ZIdPathParams, { id: params.id }, "path").id;
}

/** The four routes of one kind: `/api/v1/<kind>-versions` (the list is its loader's route), `…/[id]` and `…/[id]/default`. */
function versionRoutes<K extends TVersionKind, I>(of: VersionKind<K>, listLoader: Loader<I, unknown>) {
  return {
    list: loaderRoute(listLoader),
    create: apiRoute(async ({ request, db, auth }) =>
      json(201, await createVersion(db, auth, of, parseWith(of.createSchema, await readJsonBody(request, MAX_VERSION_BYTES), "body"))),
    ),
    get: apiRoute<IdParams>(async ({ params, db, auth }) => getVersion(db, auth.projectId, of, idOf(params))),
    makeDefault: apiRoute<IdParams>(async ({ params, db, auth }) => {
      await setDefault(db, auth.projectId, of.kind, idOf(params));
      return getVersion(db, auth.projectId, of, idOf(params));
    }),
  };
}

const copyRoutes = versionRoutes(COPY_VERSIONS, copyVersionsLoader);
export const listCopyVersionsRoute = copyRoutes.list;
export const createCopyVersionRoute = copyRoutes.create;
export const getCopyVersionRoute = copyRoutes.get;
export const defaultCopyVersionRoute = copyRoutes.makeDefault;

const policyRoutes = versionRoutes(POLICY_VERSIONS, policyVersionsLoader);
export const listPolicyVersionsRoute = policyRoutes.list;
export const createPolicyVersionRoute = policyRoutes.create;
export const getPolicyVersionRoute = policyRoutes.get;
export const defaultPolicyVersionRoute = policyRoutes.makeDefault;
