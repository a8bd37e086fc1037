import { healthRoute } from "@/lib/server/http/health-route";

export const GET = healthRoute;
