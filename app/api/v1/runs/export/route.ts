import { exportRunsRoute } from "@/lib/server/http/routes";

export const GET = exportRunsRoute;
