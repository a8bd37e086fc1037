import { getCopyVersionRoute } from "@/lib/server/http/version-routes";

export const GET = getCopyVersionRoute;
