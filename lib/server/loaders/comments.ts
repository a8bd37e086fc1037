import "server-only";
import { commentsApi } from "@/lib/endpoints/comments";
import { commentedTurns, listComments } from "@/lib/server/comments/comments";
import { defineLoader } from "./define-loader";

/** A page of the run's comments (`mine` for the caller's key). */
export const commentsLoader = defineLoader(commentsApi.list, (db, projectId, { path, query }, viewer) =>
  listComments(db, { projectId, ...viewer }, path.runId, query),
);

/** The turns with comments (the notes lane). */
export const commentedTurnsLoader = defineLoader(commentsApi.turns, (db, projectId, { path }) => commentedTurns(db, projectId, path.runId));
