import { createCommentRoute, listCommentsRoute } from "@/lib/server/http/comment-routes";

export const GET = listCommentsRoute;
export const POST = createCommentRoute;
