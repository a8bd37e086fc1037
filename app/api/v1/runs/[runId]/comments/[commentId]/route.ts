import { deleteCommentRoute, editCommentRoute } from "@/lib/server/http/comment-routes";

export const PATCH = editCommentRoute;
export const DELETE = deleteCommentRoute;
