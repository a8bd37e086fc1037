import "server-only";
import { ZIdPathParams, type TVersionKind } from "@/lib/contracts";
import { COPY_VERSIONS, POLICY_VERSIONS, type VersionKind } from "@/lib/server/versions/kinds";
import { createVersion, getVersion, listVersions, setDefault } from "@/lib/server/versions/versions";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { parseWith, readJsonBody } from "./request";

const MAX_VERSION_BYTES = 256 * 1024;
type IdParams = { id: string };

/** A version's id from the path, checked like any other parameter. */
function idOf(params: IdParams): string {
  return parseWith(ZIdPathParams, { id: params.id }, "path").id;
}

/** The four routes of one kind: `/api/v1/<kind>-versions`, `…/[id]` and `…/[id]/default`. */
function versionRoutes<K extends TVersionKind>(of: VersionKind<K>) {
  return {
    list: apiRoute(async ({ db, auth }) => ({ versions: await listVersions(db, auth.projectId, of) })),
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

const copyRoutes = versionRoutes(COPY_VERSIONS);
export const listCopyVersionsRoute = copyRoutes.list;
export const createCopyVersionRoute = copyRoutes.create;
export const getCopyVersionRoute = copyRoutes.get;
export const defaultCopyVersionRoute = copyRoutes.makeDefault;

const policyRoutes = versionRoutes(POLICY_VERSIONS);
export const listPolicyVersionsRoute = policyRoutes.list;
export const createPolicyVersionRoute = policyRoutes.create;
export const getPolicyVersionRoute = policyRoutes.get;
export const defaultPolicyVersionRoute = policyRoutes.makeDefault;
