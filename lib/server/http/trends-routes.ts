import "server-only";
import { trendsLoader } from "@/lib/server/loaders/trends";
import { loaderRoute } from "./loader-route";

/** GET /api/v1/trends */
export const trendsRoute = loaderRoute(trendsLoader);
