import { queryOptions } from "@tanstack/react-query";
import {
  ZCopyVersion,
  ZCopyVersionList,
  ZPolicyVersion,
  ZPolicyVersionList,
  type TCopyVersionCreate,
  type TPolicyVersionCreate,
} from "@/lib/contracts";
import { apiGet, apiPost } from "./api-fetch";
import { withApiInput } from "./api-input";
import { idSegment } from "./paths";

/** Query keys: one factory, so invalidation and prefetch agree with the hooks. */
export const versionKeys = {
  all: ["versions"] as const,
  copy: () => ["versions", "copy"] as const,
  policy: () => ["versions", "policy"] as const,
};

export function copyVersionsQuery() {
  return withApiInput(
    { path: {}, query: {} },
    queryOptions({
      queryKey: versionKeys.copy(),
      queryFn: ({ signal }) => apiGet("/api/v1/copy-versions", ZCopyVersionList, signal),
    }),
  );
}

export function policyVersionsQuery() {
  return withApiInput(
    { path: {}, query: {} },
    queryOptions({
      queryKey: versionKeys.policy(),
      queryFn: ({ signal }) => apiGet("/api/v1/policy-versions", ZPolicyVersionList, signal),
    }),
  );
}

export function saveCopyVersion(input: TCopyVersionCreate) {
  return apiPost("/api/v1/copy-versions", input, ZCopyVersion);
}

export function savePolicyVersion(input: TPolicyVersionCreate) {
  return apiPost("/api/v1/policy-versions", input, ZPolicyVersion);
}

/** Marks a saved version the project default (the one new replays and the editor start from). */
export function makeDefaultVersion(kind: "copy" | "policy", id: string) {
  return apiPost(`/api/v1/${kind}-versions/${idSegment(id)}/default`, {}, kind === "copy" ? ZCopyVersion : ZPolicyVersion);
}
