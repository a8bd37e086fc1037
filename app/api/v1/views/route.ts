import { createViewRoute, listViewsRoute } from "@/lib/server/http/view-routes";

export const GET = listViewsRoute;
export const POST = createViewRoute;
