import { queryOptions } from "@tanstack/react-query";
import type { TCompareQuery } from "@/lib/contracts";
import { compareApi } from "@/lib/endpoints/compare";
import { queryInput } from "./api-input";
import { endpointFetch, withEndpoint } from "./endpoint-query";

/**
 * Where runs `a` and `b` decided differently: from `turn` in `direction` (no turn: the first
 * difference, or the last for previous), with both decisions at the turn found.
 */
export function compareQuery(input: Pick<TCompareQuery, "a" | "b"> & Partial<Pick<TCompareQuery, "turn" | "direction">>) {
  const apiInput = { path: {}, query: queryInput(input) };
  return withEndpoint(
    compareApi.compare,
    apiInput,
    queryOptions({
      queryKey: ["compare", input.a, input.b, input.turn ?? null, input.direction ?? "next"] as const,
      queryFn: endpointFetch(compareApi.compare, apiInput),
    }),
  );
}
