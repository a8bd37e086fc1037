import { trendsRoute } from "@/lib/server/http/trends-routes";

export const GET = trendsRoute;
