import "server-only";
import { ZCommentListQuery, ZRunPathParams } from "@/lib/contracts";
import { commentedTurns, listComments } from "@/lib/server/comments/comments";
import { defineLoader } from "./define-loader";

/** GET /api/v1/runs/:runId/comments: a page of the run's comments (`mine` for the caller's key). */
export const commentsLoader = defineLoader({
  path: ZRunPathParams,
  query: ZCommentListQuery,
  load: (db, projectId, { path, query }, keyId) => listComments(db, { projectId, keyId }, path.runId, query),
});

/** GET /api/v1/runs/:runId/comments/turns: the turns with comments (the notes lane). */
export const commentedTurnsLoader = defineLoader({
  path: ZRunPathParams,
  load: (db, projectId, { path }) => commentedTurns(db, projectId, path.runId),
});
