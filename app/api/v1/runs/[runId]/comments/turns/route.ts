import { commentedTurnsRoute } from "@/lib/server/http/comment-routes";

export const GET = commentedTurnsRoute;
