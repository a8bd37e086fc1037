import { queryOptions } from "@tanstack/react-query";
import type { TApiKeyCreate } from "@/lib/contracts";
import { keysApi } from "@/lib/endpoints/keys";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";

export const keyKeys = { all: ["keys"] as const };

/** GET /api/v1/keys: the project's keys (admin keys only). */
export function keysQuery() {
  const input = { path: {}, query: {} };
  return withEndpoint(keysApi.list, input, queryOptions({ queryKey: keyKeys.all, queryFn: endpointFetch(keysApi.list, input) }));
}

export function createKey(input: TApiKeyCreate) {
  return callEndpoint(keysApi.create, {}, input);
}

export function revokeKey(id: string) {
  return callEndpoint(keysApi.revoke, { path: { id } });
}
