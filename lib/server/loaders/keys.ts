import "server-only";
import { keysApi } from "@/lib/endpoints/keys";
import { listProjectKeys } from "@/lib/server/auth/keys";
import { defineLoader } from "./define-loader";

/** The project's keys, live ones first; `current` marks the caller's own. */
export const keyListLoader = defineLoader(keysApi.list, async (db, projectId, _input, viewer) => ({
  keys: await listProjectKeys(db, projectId, viewer.keyId),
}));
