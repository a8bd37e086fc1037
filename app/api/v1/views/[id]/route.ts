import { deleteViewRoute, updateViewRoute } from "@/lib/server/http/view-routes";

export const PATCH = updateViewRoute;
export const DELETE = deleteViewRoute;
