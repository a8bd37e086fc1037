import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import {
  VERSION_CONTRACTS,
  type TCopyVersionCreate,
  type TPolicyVersionCreate,
  type TVersionCreateOf,
  type TVersionKind,
  type TVersionOf,
} from "@/lib/contracts";
import { apiGet, apiPost } from "./api-fetch";
import { withApiInput } from "./api-input";
import { idSegment } from "./paths";

/** What the API answers for each kind of version, typed per kind: the fetchers below are built once for both kinds. */
const ANSWERS: { [K in TVersionKind]: { version: z.ZodType<TVersionOf<K>>; list: z.ZodType<{ versions: TVersionOf<K>[] }> } } =
  VERSION_CONTRACTS;

function versionsPath(kind: TVersionKind): string {
  return `/api/v1/${kind}-versions`;
}

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
  return withApiInput(
    { path: {}, query: {} },
    queryOptions({
      queryKey: versionsKey(kind),
      queryFn: ({ signal }) => apiGet(versionsPath(kind), ANSWERS[kind].list, signal),
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
  return apiPost(versionsPath(kind), input, ANSWERS[kind].version);
}

export function saveCopyVersion(input: TCopyVersionCreate) {
  return saveVersion("copy", input);
}

export function savePolicyVersion(input: TPolicyVersionCreate) {
  return saveVersion("policy", input);
}

/** Marks a saved version the project default (the one new replays and the editor start from). */
export function makeDefaultVersion<K extends TVersionKind>(kind: K, id: string) {
  return apiPost(`${versionsPath(kind)}/${idSegment(id)}/default`, {}, ANSWERS[kind].version);
}
