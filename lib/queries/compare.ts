import { queryOptions } from "@tanstack/react-query";
import type { TCompareQuery, TRunComparison } from "@/lib/contracts";
import type { CompareSides } from "@/lib/compare-view/compare-url";
import { compareApi } from "@/lib/endpoints/compare";
import { queryInput } from "./api-input";
import { endpointFetch, withEndpoint } from "./endpoint-query";
import { replayCompareQuery } from "./replay";

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

/**
 * The comparison of the page's sides: two runs (`compareQuery`), or a run and its what-if under a
 * replay job (`replayCompareQuery`) — answered in the same shape, so the page is the same.
 */
export function comparisonQuery(sides: CompareSides, input: Partial<Pick<TCompareQuery, "turn" | "direction">> = {}) {
  const { endpoint, apiInput, queryKey } =
    sides.replay !== undefined ? replayCompareQuery(sides.replay, sides.a, input) : compareQuery({ a: sides.a, b: sides.b, ...input });
  // One key type for both (each keeps its own key): the page reads either the same way.
  return withEndpoint(
    endpoint,
    apiInput,
    queryOptions<TRunComparison, Error, TRunComparison, readonly unknown[]>({ queryKey, queryFn: endpointFetch(endpoint, apiInput) }),
  );
}
