import { queryOptions } from "@tanstack/react-query";
import type { TCommentCreate } from "@/lib/contracts";
import { commentsApi } from "@/lib/endpoints/comments";
import { queryInput } from "./api-input";
import { callEndpoint, endpointFetch, withEndpoint } from "./endpoint-query";
import { runKeys } from "./runs";

/** Which comments a list shows: the run-level ones, or one turn's. */
export type CommentScope = "run" | number;

export const commentKeys = {
  all: (runId: string) => [...runKeys.run(runId), "comments"] as const,
  list: (runId: string, scope: CommentScope, cursor: string | null) => [...runKeys.run(runId), "comments", "list", scope, cursor] as const,
  turns: (runId: string) => [...runKeys.run(runId), "comments", "turns"] as const,
};

/** A page of a run's comments in the scope, oldest first (the first page without a cursor; the run page prefetches it). */
export function commentsQuery(runId: string, scope: CommentScope, cursor: string | null = null) {
  const input = { path: { runId }, query: queryInput({ turn: scope, cursor }) };
  return withEndpoint(
    commentsApi.list,
    input,
    queryOptions({ queryKey: commentKeys.list(runId, scope, cursor), queryFn: endpointFetch(commentsApi.list, input) }),
  );
}

/** The run's turns with comments (the notes lane). */
export function commentedTurnsQuery(runId: string) {
  const input = { path: { runId }, query: {} };
  return withEndpoint(
    commentsApi.turns,
    input,
    queryOptions({ queryKey: commentKeys.turns(runId), queryFn: endpointFetch(commentsApi.turns, input) }),
  );
}

export function createComment(runId: string, input: TCommentCreate) {
  return callEndpoint(commentsApi.create, { path: { runId } }, input);
}

export function editComment(runId: string, commentId: string, body: string) {
  return callEndpoint(commentsApi.edit, { path: { runId, commentId } }, { body });
}

export function deleteComment(runId: string, commentId: string) {
  return callEndpoint(commentsApi.delete, { path: { runId, commentId } });
}
