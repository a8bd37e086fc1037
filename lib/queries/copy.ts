import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import type { TCopyVersionCreate, TPolicyVersionCreate, TVersionCreateOf, TVersionKind, TVersionOf } from "@/lib/contracts";
import { copyVersionsApi, policyVersionsApi } from "@/lib/endpoints/versions";
import { apiGet, apiPost } from "./api-fetch";
import { withEndpoint } from "./endpoint-query";
import { endpointUrl } from "./paths";

/** The endpoints of each kind of version. */
const API = { copy: copyVersionsApi, policy: policyVersionsApi };

/** What those endpoints answer, typed per kind: the fetchers below are built once for both kinds. */
const ANSWERS: { [K in TVersionKind]: { version: z.ZodType<TVersionOf<K>>; list: z.ZodType<{ versions: TVersionOf<K>[] }> } } = {
  copy: { version: copyVersionsApi.get.response, list: copyVersionsApi.list.response },
  policy: { version: policyVersionsApi.get.response, list: policyVersionsApi.list.response },
};

function versionsKey<K extends TVersionKind>(kind: K) {
  return ["versions", kind] as const;
}

/** Query keys: one factory, so invalidation and prefetch agree with the hooks. */
export const versionKeys = {
  all: ["versions"] as const,
  of: versionsKey,
};

/** A project's saved versions of one kind, newest first. */
export function versionsQuery<K extends TVersionKind>(kind: K) {
  const input = { path: {}, query: {} };
  return withEndpoint(
    API[kind].list,
    input,
    queryOptions({
      queryKey: versionsKey(kind),
      queryFn: ({ signal }) => apiGet(endpointUrl(API[kind].list, input), ANSWERS[kind].list, signal),
    }),
  );
}

export function copyVersionsQuery() {
  return versionsQuery("copy");
}

export function policyVersionsQuery() {
  return versionsQuery("policy");
}

/** Saves a draft as a new version of its kind. */
export function saveVersion<K extends TVersionKind>(kind: K, input: TVersionCreateOf<K>) {
  return apiPost(endpointUrl(API[kind].create, {}), input, ANSWERS[kind].version);
}

export function saveCopyVersion(input: TCopyVersionCreate) {
  return saveVersion("copy", input);
}

export function savePolicyVersion(input: TPolicyVersionCreate) {
  return saveVersion("policy", input);
}

/** Marks a saved version the project default (the one new replays and the editor start from). */
export function makeDefaultVersion<K extends TVersionKind>(kind: K, id: string) {
  return apiPost(endpointUrl(API[kind].makeDefault, { path: { id } }), {}, ANSWERS[kind].version);
}
