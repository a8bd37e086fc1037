import { createCopyVersionRoute, listCopyVersionsRoute } from "@/lib/server/http/version-routes";

export const GET = listCopyVersionsRoute;
export const POST = createCopyVersionRoute;
