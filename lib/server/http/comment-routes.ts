import "server-only";
import { MAX_COMMENT_REQUEST_BYTES, ZCommentCreate, ZCommentEdit, ZCommentPathParams } from "@/lib/contracts";
import { createComment, deleteComment, editComment } from "@/lib/server/comments/comments";
import { commentedTurnsLoader, commentsLoader } from "@/lib/server/loaders/comments";
import { apiRoute } from "./api-route";
import { json } from "./errors-to-response";
import { loaderRoute } from "./loader-route";
import { readJsonBody, runIdOf } from "./request";
import { parseWith } from "@/lib/server/errors";

/**
 * The comments of a run (docs/comments.md): list, write, edit and delete. Reads and writes are of
 * the caller's project only; writes from a browser session must be same-origin (apiRoute); only a
 * comment's author edits or deletes it.
 */

type RunParams = { runId: string };
type CommentParams = { runId: string; commentId: string };

function commentIdOf(params: CommentParams, runId: string): string {
  return parseWith(ZCommentPathParams, { runId, commentId: params.commentId }, "path").commentId;
}

/** GET /api/v1/runs/:runId/comments — a page of the run's comments, oldest first (all, `turn=run`, or `turn=N`). */
export const listCommentsRoute = loaderRoute(commentsLoader);

/** POST /api/v1/runs/:runId/comments — 201 with the comment. */
export const createCommentRoute = apiRoute<RunParams>(async ({ request, params, db, auth }) => {
  const runId = runIdOf(params, request);
  const body = parseWith(ZCommentCreate, await readJsonBody(request, MAX_COMMENT_REQUEST_BYTES), "body");
  return json(201, await createComment(db, auth, runId, body));
});

/** PATCH /api/v1/runs/:runId/comments/:commentId — the edited comment (its author only). */
export const editCommentRoute = apiRoute<CommentParams>(async ({ request, params, db, auth }) => {
  const runId = runIdOf(params, request);
  const commentId = commentIdOf(params, runId);
  const body = parseWith(ZCommentEdit, await readJsonBody(request, MAX_COMMENT_REQUEST_BYTES), "body");
  return editComment(db, auth, runId, commentId, body.body);
});

/** DELETE /api/v1/runs/:runId/comments/:commentId — its author only. */
export const deleteCommentRoute = apiRoute<CommentParams>(async ({ request, params, db, auth }) => {
  const runId = runIdOf(params, request);
  return deleteComment(db, auth, runId, commentIdOf(params, runId));
});

/** GET /api/v1/runs/:runId/comments/turns — the turns with comments (the run page's notes lane). */
export const commentedTurnsRoute = loaderRoute(commentedTurnsLoader);
