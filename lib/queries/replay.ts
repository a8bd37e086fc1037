import { queryOptions } from "@tanstack/react-query";
import type { TReplayCompareQuery, TReplayFilters, TReplayJob, TReplayRequest } from "@/lib/contracts";
import { replayApi } from "@/lib/endpoints/replay";
import { queryInput } from "./api-input";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";

/** How often a running replay is asked for its progress. */
const POLL_MS = 400;

export const replayKeys = {
  all: ["replay"] as const,
  job: (id: string) => ["replay", "job", id] as const,
  turn: (id: string, runId: string, turn: number) => ["replay", "job", id, "turn", runId, turn] as const,
  compare: (id: string, runId: string, turn: number | null, direction: string) =>
    ["replay", "job", id, "compare", runId, turn, direction] as const,
  whatIfRun: (id: string, runId: string) => ["replay", "job", id, "what-if", runId] as const,
  list: () => ["replay", "list"] as const,
  matching: (filters: TReplayFilters, maxRuns: number) => ["replay", "matching", filters, maxRuns] as const,
};

/** The project's most recent replays (refreshed when a replay starts or finishes). */
export function replayListQuery() {
  const input = { path: {}, query: {} };
  return withEndpoint(replayApi.list, input, queryOptions({ queryKey: replayKeys.list(), queryFn: endpointFetch(replayApi.list, input) }));
}

/** How many runs and turns a replay with these filters would rebuild (from stored counts). */
export function replayMatchingQuery(filters: TReplayFilters, maxRuns: number) {
  const input = { path: {}, query: queryInput({ ...filters, maxRuns }) };
  const queryFn = endpointFetch(replayApi.matching, input);
  return withEndpoint(
    replayApi.matching,
    input,
    queryOptions({
      queryKey: replayKeys.matching(filters, maxRuns),
      queryFn,
      staleTime: 10_000,
      placeholderData: (previous) => previous,
    }),
  );
}

/** A replay job: polled while it runs, then kept (a finished result never changes). */
export function replayJobQuery(id: string) {
  const input = { path: { id }, query: {} };
  const queryFn = endpointFetch(replayApi.job, input);
  return withEndpoint(
    replayApi.job,
    input,
    queryOptions({
      queryKey: replayKeys.job(id),
      queryFn,
      refetchInterval: (query) => (query.state.data?.status === "running" ? POLL_MS : false),
      staleTime: (query) => (query.state.data && query.state.data.status !== "running" ? Infinity : 0),
    }),
  );
}

/** One turn of a run, baseline next to the replay's what-if. */
export function replayTurnQuery(id: string, runId: string, turn: number) {
  const input = { path: { id, runId, turn: String(turn) }, query: {} };
  return withEndpoint(
    replayApi.turn,
    input,
    queryOptions({
      queryKey: replayKeys.turn(id, runId, turn),
      queryFn: endpointFetch(replayApi.turn, input),
      staleTime: Infinity,
    }),
  );
}

/**
 * A replayed run (A) against its what-if under the job (B), as the comparison of two runs: from
 * `turn` in `direction` (no turn: the first difference, or the last for previous).
 */
export function replayCompareQuery(id: string, runId: string, input: Partial<TReplayCompareQuery> = {}) {
  const apiInput = { path: { id, runId }, query: queryInput(input) };
  return withEndpoint(
    replayApi.compare,
    apiInput,
    queryOptions({
      queryKey: replayKeys.compare(id, runId, input.turn ?? null, input.direction ?? "next"),
      queryFn: endpointFetch(replayApi.compare, apiInput),
    }),
  );
}

/** A replayed run's what-if as the comparison draws it: its whole-run timeline and counts. */
export function replayWhatIfRunQuery(id: string, runId: string) {
  const apiInput = { path: { id, runId }, query: {} };
  return withEndpoint(
    replayApi.whatIfRun,
    apiInput,
    queryOptions({ queryKey: replayKeys.whatIfRun(id, runId), queryFn: endpointFetch(replayApi.whatIfRun, apiInput) }),
  );
}

export function startReplay(request: Partial<TReplayRequest>): Promise<TReplayJob> {
  return callEndpoint(replayApi.start, {}, request);
}

export function cancelReplay(id: string): Promise<TReplayJob> {
  return callEndpoint(replayApi.cancel, { path: { id } }, {});
}
