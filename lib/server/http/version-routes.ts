import "server-only";
import { ZCopyVersionCreate, ZIdPathParams, ZPolicyVersionCreate } from "@/lib/contracts";
import { copyVersionsLoader, policyVersionsLoader } from "@/lib/server/loaders/versions";
import { createCopyVersion, createPolicyVersion, getCopyVersion, getPolicyVersion, setDefault } from "@/lib/server/versions/versions";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { loaderRoute } from "./loader-route";
import { parseWith, readJsonBody } from "./request";

const MAX_VERSION_BYTES = 256 * 1024;
type IdParams = { id: string };

/** A version's id from the path, checked like any other parameter. */
function idOf(params: IdParams): string {
  return parseWith(ZIdPathParams, { id: params.id }, "path").id;
}

export const listCopyVersionsRoute = loaderRoute(copyVersionsLoader);
export const createCopyVersionRoute = apiRoute(async ({ request, db, auth }) =>
  json(201, await createCopyVersion(db, auth, parseWith(ZCopyVersionCreate, await readJsonBody(request, MAX_VERSION_BYTES), "body"))),
);
export const getCopyVersionRoute = apiRoute<IdParams>(async ({ params, db, auth }) => getCopyVersion(db, auth.projectId, idOf(params)));
export const defaultCopyVersionRoute = apiRoute<IdParams>(async ({ params, db, auth }) => {
  await setDefault(db, auth.projectId, "copy", idOf(params));
  return getCopyVersion(db, auth.projectId, idOf(params));
});

export const listPolicyVersionsRoute = loaderRoute(policyVersionsLoader);
export const createPolicyVersionRoute = apiRoute(async ({ request, db, auth }) =>
  json(201, await createPolicyVersion(db, auth, parseWith(ZPolicyVersionCreate, await readJsonBody(request, MAX_VERSION_BYTES), "body"))),
);
export const getPolicyVersionRoute = apiRoute<IdParams>(async ({ params, db, auth }) => getPolicyVersion(db, auth.projectId, idOf(params)));
export const defaultPolicyVersionRoute = apiRoute<IdParams>(async ({ params, db, auth }) => {
  await setDefault(db, auth.projectId, "policy", idOf(params));
  return getPolicyVersion(db, auth.projectId, idOf(params));
});
