import { queryOptions } from "@tanstack/react-query";
import {
  ZReplayJob,
  ZReplayList,
  ZReplayMatching,
  ZReplayTurn,
  type TReplayFilters,
  type TReplayJob,
  type TReplayRequest,
} from "@/lib/contracts";
import { apiGet, apiPost } from "./api-fetch";
import { queryInput, withApiInput } from "./api-input";
import { apiReplayTurnPath, idSegment } from "./paths";

/** How often a running replay is asked for its progress. */
const POLL_MS = 400;

export const replayKeys = {
  all: ["replay"] as const,
  job: (id: string) => ["replay", "job", id] as const,
  turn: (id: string, runId: string, turn: number) => ["replay", "job", id, "turn", runId, turn] as const,
  list: () => ["replay", "list"] as const,
  matching: (filters: TReplayFilters, maxRuns: number) => ["replay", "matching", filters, maxRuns] as const,
};

/** The project's most recent replays (refreshed when a replay starts or finishes). */
export function replayListQuery() {
  return withApiInput(
    { path: {}, query: {} },
    queryOptions({
      queryKey: replayKeys.list(),
      queryFn: ({ signal }) => apiGet("/api/v1/replay", ZReplayList, signal),
    }),
  );
}

/** How many runs and turns a replay with these filters would rebuild (from stored counts). */
export function replayMatchingQuery(filters: TReplayFilters, maxRuns: number) {
  const query = queryInput({ ...filters, maxRuns });
  return withApiInput(
    { path: {}, query },
    queryOptions({
      queryKey: replayKeys.matching(filters, maxRuns),
      queryFn: ({ signal }) => apiGet(`/api/v1/replay/matching?${new URLSearchParams(query)}`, ZReplayMatching, signal),
      staleTime: 10_000,
      placeholderData: (previous) => previous,
    }),
  );
}

/** A replay job: polled while it runs, then kept (a finished result never changes). */
export function replayJobQuery(id: string) {
  return withApiInput(
    { path: { id }, query: {} },
    queryOptions({
      queryKey: replayKeys.job(id),
      queryFn: ({ signal }) => apiGet(`/api/v1/replay/${idSegment(id)}`, ZReplayJob, signal),
      refetchInterval: (query) => (query.state.data?.status === "running" ? POLL_MS : false),
      staleTime: (query) => (query.state.data && query.state.data.status !== "running" ? Infinity : 0),
    }),
  );
}

/** One turn of a run, baseline next to the replay's what-if. */
export function replayTurnQuery(id: string, runId: string, turn: number) {
  return withApiInput(
    { path: { id, runId, turn: String(turn) }, query: {} },
    queryOptions({
      queryKey: replayKeys.turn(id, runId, turn),
      queryFn: ({ signal }) => apiGet(apiReplayTurnPath(id, runId, turn), ZReplayTurn, signal),
      staleTime: Infinity,
    }),
  );
}

export function startReplay(request: Partial<TReplayRequest>): Promise<TReplayJob> {
  return apiPost("/api/v1/replay", request, ZReplayJob);
}

export function cancelReplay(id: string): Promise<TReplayJob> {
  return apiPost(`/api/v1/replay/${idSegment(id)}/cancel`, {}, ZReplayJob);
}
