import { runEventsRoute } from "@/lib/server/http/routes";

export const GET = runEventsRoute;
