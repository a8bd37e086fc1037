import { queryOptions } from "@tanstack/react-query";
import { ZComment, ZCommentDeleted, ZCommentList, ZCommentedTurns, type TCommentCreate } from "@/lib/contracts";
import { apiGet, apiSend } from "./api-fetch";
import { queryInput, withApiInput } from "./api-input";
import { apiRunPath, idSegment } from "./paths";
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
  return withApiInput(
    input,
    queryOptions({
      queryKey: commentKeys.list(runId, scope, cursor),
      queryFn: ({ signal }) => apiGet(apiRunPath(runId, "/comments", input.query), ZCommentList, signal),
    }),
  );
}

/** The run's turns with comments (the notes lane). */
export function commentedTurnsQuery(runId: string) {
  return withApiInput(
    { path: { runId }, query: {} },
    queryOptions({
      queryKey: commentKeys.turns(runId),
      queryFn: ({ signal }) => apiGet(apiRunPath(runId, "/comments/turns"), ZCommentedTurns, signal),
    }),
  );
}

export function createComment(runId: string, input: TCommentCreate) {
  return apiSend("POST", apiRunPath(runId, "/comments"), input, ZComment);
}

export function editComment(runId: string, commentId: string, body: string) {
  return apiSend("PATCH", apiRunPath(runId, `/comments/${idSegment(commentId)}`), { body }, ZComment);
}

export function deleteComment(runId: string, commentId: string) {
  return apiSend("DELETE", apiRunPath(runId, `/comments/${idSegment(commentId)}`), null, ZCommentDeleted);
}
