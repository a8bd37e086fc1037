import type { z } from "zod";
import {
  ZCopyVersion,
  ZCopyVersionCreate,
  ZCopyVersionList,
  ZIdPathParams,
  ZPolicyVersion,
  ZPolicyVersionCreate,
  ZPolicyVersionList,
} from "@/lib/contracts";
import { endpoint } from "./endpoint";

const MAX_VERSION_BYTES = 256 * 1024;

/** The four endpoints of one kind of saved version: `/api/v1/<kind>-versions`, `…/{id}` and `…/{id}/default`. */
function versionEndpoints<C extends z.ZodType, V extends z.ZodType, L extends z.ZodType>(
  kind: "copy" | "policy",
  schemas: { create: C; version: V; list: L },
) {
  const Kind = kind === "copy" ? "Copy" : "Policy";
  const tag = kind === "copy" ? "Copy versions" : "Policy versions";
  const base = `/api/v1/${kind}-versions`;
  const what = kind === "copy" ? "reminder copy (templates per reminder key and stage)" : "policy (meters, thresholds, review schedule)";
  return {
    list: endpoint({
      id: `list${Kind}Versions`,
      method: "GET",
      path: base,
      tag,
      summary: `List ${kind} versions`,
      description: `The project's saved versions of ${what}, newest first.`,
      auth: "key",
      responses: [{ status: 200, description: `The ${kind} versions.`, schema: schemas.list }],
    }),
    create: endpoint({
      id: `create${Kind}Version`,
      method: "POST",
      path: base,
      tag,
      summary: `Save a ${kind} version`,
      description: `Saves a new named version of ${what}; a saved version is never changed.`,
      auth: "key",
      body: {
        schema: schemas.create,
        maxBytes: MAX_VERSION_BYTES,
        description: `The version: a unique name, an optional note and parent, and the ${kind}.`,
      },
      responses: [{ status: 201, description: "The saved version.", schema: schemas.version }],
      errors: { 409: "A version of that name exists in the project." },
    }),
    get: endpoint({
      id: `get${Kind}Version`,
      method: "GET",
      path: `${base}/{id}`,
      tag,
      summary: `Read a ${kind} version`,
      description: `One saved ${kind} version.`,
      auth: "key",
      pathParams: ZIdPathParams,
      responses: [{ status: 200, description: "The version.", schema: schemas.version }],
    }),
    makeDefault: endpoint({
      id: `makeDefault${Kind}Version`,
      access: "admin",
      method: "POST",
      path: `${base}/{id}/default`,
      tag,
      summary: `Make a ${kind} version the default`,
      description: `Marks the version as the project's default ${kind} (the editor starts from it). No body.`,
      auth: "key",
      pathParams: ZIdPathParams,
      responses: [{ status: 200, description: "The version, now the default.", schema: schemas.version }],
    }),
  };
}

/** Saved reminder copy. */
export const copyVersionsApi = versionEndpoints("copy", { create: ZCopyVersionCreate, version: ZCopyVersion, list: ZCopyVersionList });

/** Saved policies. */
export const policyVersionsApi = versionEndpoints("policy", {
  create: ZPolicyVersionCreate,
  version: ZPolicyVersion,
  list: ZPolicyVersionList,
});
