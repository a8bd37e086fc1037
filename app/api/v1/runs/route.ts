import { listRunsRoute } from "@/lib/server/http/routes";

export const GET = listRunsRoute;
