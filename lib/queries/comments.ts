import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { ZComment, ZCommentDeleted, ZCommentList, ZCommentedTurns, type TCommentCreate } from "@/lib/contracts";
import { apiGet, apiSend } from "./api-fetch";
import { apiRunPath, idSegment } from "./paths";
import { runKeys } from "./runs";

/** Which comments a list shows: the run-level ones, or one turn's. */
export type CommentScope = "run" | number;

export const commentKeys = {
  all: (runId: string) => [...runKeys.run(runId), "comments"] as const,
  list: (runId: string, scope: CommentScope) => [...runKeys.run(runId), "comments", "list", scope] as const,
  turns: (runId: string) => [...runKeys.run(runId), "comments", "turns"] as const,
};

/** A run's comments in the scope, oldest first, page by page (`nextCursor`). */
export function commentsQuery(runId: string, scope: CommentScope) {
  return infiniteQueryOptions({
    queryKey: commentKeys.list(runId, scope),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiGet(apiRunPath(runId, "/comments", { turn: scope, cursor: pageParam ?? undefined }), ZCommentList, signal),
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** The run's turns with comments (the notes lane). */
export function commentedTurnsQuery(runId: string) {
  return queryOptions({
    queryKey: commentKeys.turns(runId),
    queryFn: ({ signal }) => apiGet(apiRunPath(runId, "/comments/turns"), ZCommentedTurns, signal),
  });
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
