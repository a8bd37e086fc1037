import "server-only";
import { keysApi } from "@/lib/endpoints/keys";
import { createProjectKey, revokeProjectKey } from "@/lib/server/auth/keys";
import { endpointRoute } from "./endpoint-route";

/** The keys page's writes (the list is a loader's: lib/server/loaders/keys.ts). */

/** 201 with the key and its secret (shown this once). */
export const createKeyRoute = endpointRoute(keysApi.create, ({ input, db, auth }) => createProjectKey(db, auth, input.body));

/** The key, revoked (404 for another project's). */
export const revokeKeyRoute = endpointRoute(keysApi.revoke, ({ input, db, auth }) => revokeProjectKey(db, auth, input.path.id));
