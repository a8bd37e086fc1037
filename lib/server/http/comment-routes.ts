import "server-only";
import { commentsApi } from "@/lib/endpoints/comments";
import { createComment, deleteComment, editComment } from "@/lib/server/comments/comments";
import { endpointRoute } from "./endpoint-route";

/**
 * The comments of a run (docs/comments.md) that are writes (the list and the notes lane are
 * lib/server/loaders/comments.ts): of the caller's project only; from a browser session same-origin
 * only (endpointRoute); only a comment's author edits or deletes it.
 */

/** 201 with the comment. */
export const createCommentRoute = endpointRoute(commentsApi.create, ({ input, db, auth }) =>
  createComment(db, auth, input.path.runId, input.body),
);

/** The edited comment (its author only). */
export const editCommentRoute = endpointRoute(commentsApi.edit, ({ input, db, auth }) =>
  editComment(db, auth, input.path.runId, input.path.commentId, input.body.body),
);

/** Its author only. */
export const deleteCommentRoute = endpointRoute(commentsApi.delete, ({ input, db, auth }) =>
  deleteComment(db, auth, input.path.runId, input.path.commentId),
);
